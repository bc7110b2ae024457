import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** This folder as a file path (POSIX or Windows), without node's types in the renderer project. */
const here = decodeURIComponent(new URL('.', import.meta.url).pathname).replace(/^\/([A-Za-z]:)/, '$1');

/**
 * The renderer is built once and loaded both by Electron (from file://, hence relative asset paths)
 * and by web mode (served from 127.0.0.1). The page's CSP allows no inline script or style, so the
 * build must emit none: Vite emits external script and stylesheet files only.
 */
export default defineConfig({
  root: here,
  base: './',
  plugins: [react()],
  build: {
    outDir: `${here}../dist/renderer`,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // Keep the CSS in a file; never inline small assets as data: URLs inside the JS.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  logLevel: 'warn',
});
