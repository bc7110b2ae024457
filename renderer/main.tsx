import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { RendererApi } from '../contract/index';
import { createClient, setClient } from './api/client';
import { connectWebSocketBridge, takeTokenFromLocation, webSocketUrl } from './bridge/websocket';
import { App } from './app/App';
import './styles/app.css';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in web mode, where the WebSocket bridge stands in. */
    provisioner?: RendererApi;
  }
}

function connect(): RendererApi | null {
  if (window.provisioner) return window.provisioner;
  const token = takeTokenFromLocation(window.location, window.history, window.sessionStorage);
  if (!token) return null;
  return connectWebSocketBridge(webSocketUrl(window.location, token));
}

const root = createRoot(document.getElementById('root') as HTMLElement);
const api = connect();
if (api) {
  setClient(createClient(api));
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
} else {
  root.render(
    <main className="fatal">
      <h1>Not connected</h1>
      <p>
        Open the address that <code>npm run web</code> printed: it carries this run&apos;s access token.
      </p>
    </main>,
  );
}
