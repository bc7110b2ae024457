import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import type { RendererApi } from '../contract/index';
import { createClient, setClient } from './api/client';
import { connectWebSocketBridge, takeTokenFromLocation, webSocketUrl } from './bridge/websocket';
import { App } from './app/App';
import { I18nProvider } from './i18n/I18nProvider';
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

function NotConnected() {
  const { t } = useTranslation();
  return (
    <main className="fatal">
      <h1>{t('app:notConnected.title')}</h1>
      <p>{t('app:notConnected.body')}</p>
    </main>
  );
}

const root = createRoot(document.getElementById('root') as HTMLElement);
const api = connect();
if (api) setClient(createClient(api));
root.render(
  <StrictMode>
    <I18nProvider>{api ? <App /> : <NotConnected />}</I18nProvider>
  </StrictMode>,
);
