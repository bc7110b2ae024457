// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NativeThemeSource, RendererApi } from '../../../contract/index';
import { nativeThemeSource, SYSTEM_QUERIES } from '../../../renderer/theme/theme-choice';
import { startTheme, useTheme } from '../../../renderer/theme/theme-store';

/**
 * In Electron the shell's own menus and dialogs follow the theme chosen in the app: the theme
 * store tells the preload's setNativeTheme (light, dark, or the system's for "As the system" and
 * for high contrast), once per change. Web mode has no setNativeTheme and nothing is told.
 */

/** matchMedia whose dark query can change while the page runs, as Electron's does when themeSource changes. */
function systemMedia() {
  const listeners = new Set<() => void>();
  let dark = false;
  const matchMedia = (query: string) =>
    ({
      get matches() {
        return query === SYSTEM_QUERIES.dark && dark;
      },
      addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
    }) as unknown as MediaQueryList;
  const setDark = (value: boolean) => {
    dark = value;
    for (const listener of listeners) listener();
  };
  return { matchMedia, setDark };
}

let stop: (() => void) | undefined;
let told: NativeThemeSource[];
let media: ReturnType<typeof systemMedia>;

beforeEach(() => {
  window.localStorage.clear();
  media = systemMedia();
  window.matchMedia = media.matchMedia;
  told = [];
  const shell: Pick<RendererApi, 'setNativeTheme'> = {
    setNativeTheme: async (source) => {
      told.push(source);
      // Electron: a dark themeSource makes the page's prefers-color-scheme dark.
      media.setDark(source === 'dark');
    },
  };
  (window as unknown as { provisioner?: unknown }).provisioner = shell;
});
afterEach(() => {
  stop?.();
  stop = undefined;
  delete (window as unknown as { provisioner?: unknown }).provisioner;
});

describe('the shell’s theme follows the choice', () => {
  it('maps each choice: light and dark as they are, the system and high contrast to the system', () => {
    expect(nativeThemeSource('light')).toBe('light');
    expect(nativeThemeSource('dark')).toBe('dark');
    expect(nativeThemeSource('system')).toBe('system');
    expect(nativeThemeSource('high-contrast')).toBe('system');
  });

  it('tells the shell at start and at each choice, once per change', () => {
    window.localStorage.setItem('provisioner.theme', 'light');
    stop = startTheme(window);
    expect(told).toEqual(['light']);

    useTheme.getState().choose('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    useTheme.getState().choose('high-contrast');
    useTheme.getState().choose('system');
    useTheme.getState().choose('system');
    expect(told).toEqual(['light', 'dark', 'system']);
  });

  it('tells nothing in web mode, where there is no shell', () => {
    delete (window as unknown as { provisioner?: unknown }).provisioner;
    stop = startTheme(window);
    useTheme.getState().choose('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(told).toEqual([]);
  });
});
