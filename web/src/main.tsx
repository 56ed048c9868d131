import './styles/tokens.css';
import './styles/site.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadRoute } from './app/routes';
import { registerServiceWorker } from './lib/serviceWorker';
import { reloadOnStaleChunk } from './lib/staleChunks';
import { afterLoadWhenIdle } from './lib/idle';

reloadOnStaleChunk();
// The opened page's code was fetched beside this entry (vite.config.ts): with it loaded, the first render
// shows the page (or the first second's skeleton) at once, never a fallback in between.
void preloadRoute(location.pathname)
  .catch(() => {}) // the page's own render tries again and shows the error
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
registerServiceWorker();

/**
 * Forms kept offline on an earlier visit (lib/formQueue) are sent once the
 * page has loaded and is idle and whenever the connection comes back; the code doing it
 * is loaded only while something is queued.
 */
function sendQueuedFormsIfAny() {
  try {
    if (!localStorage.getItem('salaula-forms-queued')) return;
  } catch {
    return;
  }
  void import('./lib/offline').then((m) => m.sendQueuedForms()).catch(() => {});
}
afterLoadWhenIdle(sendQueuedFormsIfAny);
window.addEventListener('online', sendQueuedFormsIfAny);
