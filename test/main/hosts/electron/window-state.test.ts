import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WINDOW_SIZE,
  MIN_WINDOW_SIZE,
  loadWindowState,
  parseWindowState,
  restoreBounds,
  saveWindowState,
} from '../../../../main/hosts/electron/window-state';
import { buildMenuTemplate } from '../../../../main/hosts/electron/menu-template';

const laptop = { x: 0, y: 0, width: 1920, height: 1050 };
const external = { x: 1920, y: 0, width: 2560, height: 1410 };

describe('remembered window size and position', () => {
  it('opens at the default size the first time', () => {
    expect(restoreBounds(null, [laptop])).toEqual(DEFAULT_WINDOW_SIZE);
  });

  it('restores where the window was while that place is on a display', () => {
    const saved = { x: 2100, y: 80, width: 1600, height: 1000, maximized: false };
    expect(restoreBounds(saved, [laptop, external])).toEqual({ x: 2100, y: 80, width: 1600, height: 1000 });
  });

  it('keeps the size but lets the OS place a window last seen on an unplugged monitor', () => {
    const saved = { x: 2100, y: 80, width: 1600, height: 1000, maximized: false };
    expect(restoreBounds(saved, [laptop])).toEqual({ width: 1600, height: 1000 });
  });

  it('keeps the size within the largest display and above the minimum', () => {
    expect(restoreBounds({ width: 9000, height: 9000, maximized: false }, [laptop])).toEqual({
      width: 1920,
      height: 1050,
    });
    expect(restoreBounds({ width: 10, height: 10, maximized: false }, [laptop])).toEqual(MIN_WINDOW_SIZE);
  });

  it('ignores a damaged file', async () => {
    expect(parseWindowState('{not json')).toBeNull();
    expect(parseWindowState('{"width":-5,"height":100}')).toBeNull();
    expect(parseWindowState('{"width":"wide","height":100}')).toBeNull();
    expect(parseWindowState('{"width":1200,"height":800,"x":1.5,"y":3}')).toEqual({
      width: 1200,
      height: 800,
      maximized: false,
    });
  });

  it('saves to userData as owner-only JSON and reads it back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'provisioner-window-'));
    try {
      const file = join(dir, 'nested', 'window-state.json');
      await saveWindowState(file, { x: 10, y: 20, width: 1300, height: 900, maximized: true });
      expect(await loadWindowState(file)).toEqual({ x: 10, y: 20, width: 1300, height: 900, maximized: true });
      if (process.platform !== 'win32') expect((await stat(file)).mode & 0o077).toBe(0);
      await writeFile(file, 'garbage');
      expect(await loadWindowState(file)).toBeNull();
      expect(await loadWindowState(join(dir, 'missing.json'))).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('application menu', () => {
  const labels = (isMac: boolean) =>
    buildMenuTemplate({ appName: 'Provisioner', isMac, isDev: false }).map((item) => item.label);
  const roles = (isDev: boolean) => JSON.stringify(buildMenuTemplate({ appName: 'Provisioner', isMac: false, isDev }));

  it('has File, Edit, View, Window and Help (with access keys off macOS)', () => {
    expect(labels(false)).toEqual(['&File', '&Edit', '&View', '&Window', '&Help']);
    expect(labels(true)).toEqual(['Provisioner', 'File', 'Edit', 'View', 'Window', 'Help']);
  });

  it('offers reload and developer tools in development only', () => {
    expect(roles(true)).toMatch(/"reload".*"forceReload".*"toggleDevTools"/);
    expect(roles(false)).not.toMatch(/reload|DevTools/i);
  });
});
