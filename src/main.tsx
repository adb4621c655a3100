import './domain/no-eval';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { currentLanguage } from './i18n';
import { App, createAppRouter } from './ui/App';
import { startEarlyMapLoad } from './ui/map/earlyLoad';
import './ui/styles.css';

// A map's address: its engine chunk, tile manifest and markers are asked for now, not after the first render.
startEarlyMapLoad(window.location.pathname, currentLanguage(), window.location.search);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const router = createAppRouter();
// The first render as a transition: React renders it in slices and lets the browser paint (the
// map's poster) and take network answers between them, instead of one long task.
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  );
});
