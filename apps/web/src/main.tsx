import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import 'bootstrap/dist/css/bootstrap.min.css';
import './ui/theme.css';
import { GUEST_SHELLS, guestShellFor } from '@boardwalk/contract/guest-shells';
import { App } from './app/app.tsx';
import { initialLanguage, loadLanguage, type LoadedLanguage } from './lib/language.tsx';

function render(language: LoadedLanguage) {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  document.documentElement.lang = language.language;
  const app = (
    <StrictMode>
      <App language={language} />
    </StrictMode>
  );
  // The guest pages' first screens come prerendered (src/prerender.tsx), in the language the
  // server picked: the app takes over that markup as it is. Every other page starts from the empty root.
  if (root.hasChildNodes()) hydrateRoot(root, app);
  else createRoot(root).render(app);
}
// The page's words first (the chunks of its areas, which the prerendered page already preloads),
// then the app: its route then renders at once, so the prerendered markup hydrates as it is
// (a lazy route's words arriving mid-hydration would make React render it again from scratch).
void loadLanguage(initialLanguage(), GUEST_SHELLS[guestShellFor(location.pathname)].areas).then(render);

// The guest pages' service worker (src/service-worker/), registered once the page has loaded and
// the browser is idle, so its install (the files it keeps) never competes with the page's own
// work: on a phone the pass is on screen first (measured: registered at load, it cost the pass
// page's Lighthouse run blocking time). Staff pages do not register it (the worker leaves them
// alone either way); a development server has none.
const registerServiceWorker = () => void navigator.serviceWorker.register('/service-worker.js').catch(() => undefined);
const whenIdle = () =>
  'requestIdleCallback' in window ? requestIdleCallback(registerServiceWorker, { timeout: 5000 }) : setTimeout(registerServiceWorker, 1000);
if (import.meta.env.PROD && 'serviceWorker' in navigator && !/^\/(login|admin)(\/|$)/i.test(location.pathname)) {
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
