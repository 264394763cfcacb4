import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import 'bootstrap/dist/css/bootstrap.min.css';
import './ui/theme.css';
import { App } from './app/app.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// The guest pages' first screens come prerendered (src/prerender.tsx): the app takes over
// that markup as it is. Every other page starts from the empty root.
if (root.hasChildNodes()) hydrateRoot(root, app);
else createRoot(root).render(app);
