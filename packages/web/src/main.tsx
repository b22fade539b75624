// First: the page's style nonce reaches every style element created from here on.
import './app/csp';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import './app/global.css';
import './app/screens.css';
import './app/admin-screens.css';
import { App } from './app/App';

const container = document.getElementById('root');
if (!container) {
  throw new Error('#root element missing from index.html');
}
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
