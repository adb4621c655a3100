import './domain/no-eval';
// A map's address: its engine chunk, tile manifest and markers are asked for now, before the
// modules below are evaluated and long before the first render.
import './early-map-load';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppRouter } from './ui/App';
import './ui/styles.css';

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
