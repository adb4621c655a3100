import './domain/no-eval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import { App, createAppRouter } from './ui/App';
import './ui/styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const router = createAppRouter();
createRoot(root).render(
  <StrictMode>
    <App router={router} />
  </StrictMode>,
);
