import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CoreHost } from '../../../../contract/index';
import { app, fake, nativeTheme, type BrowserWindow } from './fake-electron';

vi.mock('electron', () => import('./fake-electron'));

const { startShell } = await import('../../../../main/hosts/electron/shell');
const { WINDOW_BACKGROUNDS } = await import('../../../../main/hosts/electron/window-background');

/**
 * The Electron window's ground follows the operating system's appearance (nativeTheme): at start
 * and when the system switches, in the colour of the renderer's palette for it, so a dark or
 * high-contrast workstation never flashes white. The shell starts with nativeTheme.themeSource at
 * 'system'; the app's own choice reaches it later from the renderer (native-theme.test.ts).
 */

const idleCore = (): CoreHost => ({ invoke: async () => null as never, subscribe: () => () => {} });

let userData: string;
beforeEach(async () => {
  fake.reset();
  userData = await mkdtemp(join(tmpdir(), 'provisioner-window-theme-'));
  app.userData = userData;
});
afterEach(async () => {
  await rm(userData, { recursive: true, force: true });
});

async function openWindow(): Promise<BrowserWindow> {
  const shell = await startShell({
    createCore: async () => idleCore(),
    appRoot: '/opt/provisioner-app',
    log: () => {},
  });
  if (!shell) throw new Error('expected the first instance to start');
  return shell.window() as unknown as BrowserWindow;
}

describe('the window in the system’s appearance', () => {
  it.each([
    ['light', false, false],
    ['dark', true, false],
    ['high-contrast', false, true],
    ['high-contrast', true, true],
  ] as const)('opens on the %s ground (dark %s, high contrast %s)', async (palette, dark, highContrast) => {
    nativeTheme.shouldUseDarkColors = dark;
    nativeTheme.shouldUseHighContrastColors = highContrast;
    const window = await openWindow();
    expect(window.backgroundColor).toBe(WINDOW_BACKGROUNDS[palette]);
    expect(nativeTheme.themeSource).toBe('system');
  });

  it('follows the system switching while it runs, and stops listening once closed', async () => {
    const window = await openWindow();
    expect(window.backgroundColor).toBe(WINDOW_BACKGROUNDS.light);
    nativeTheme.shouldUseDarkColors = true;
    nativeTheme.emit('updated');
    expect(window.backgroundColor).toBe(WINDOW_BACKGROUNDS.dark);
    nativeTheme.shouldUseHighContrastColors = true;
    nativeTheme.emit('updated');
    expect(window.backgroundColor).toBe(WINDOW_BACKGROUNDS['high-contrast']);
    expect(nativeTheme.listenerCount('updated')).toBe(1);
    window.destroy();
    expect(nativeTheme.listenerCount('updated')).toBe(0);
  });

  it('uses the grounds of the renderer’s palettes', async () => {
    const css = await readFile(
      join(import.meta.dirname, '..', '..', '..', '..', 'renderer', 'styles', 'app.css'),
      'utf8',
    );
    for (const [palette, colour] of Object.entries(WINDOW_BACKGROUNDS)) {
      const start = css.indexOf(`:root[data-theme='${palette}'] {`);
      expect(start, palette).toBeGreaterThan(0);
      const bg = /--bg:\s*(#[0-9a-f]{6});/i.exec(css.slice(start))?.[1];
      expect(bg, palette).toBe(colour);
    }
  });
});
