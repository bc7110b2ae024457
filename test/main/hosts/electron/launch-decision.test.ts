import { describe, expect, it } from 'vitest';
import {
  fallbackMessage,
  missingDisplay,
  NO_DOWNLOAD_ENV,
  planLaunch,
  startupFailure,
  STARTUP_FAILURE_WINDOW_MS,
  type LaunchFacts,
} from '../../../../main/hosts/electron/launcher/launch-decision';

const present = { kind: 'present', path: '/p/node_modules/electron/dist/electron' } as const;
const notDownloaded = { kind: 'missing', detail: 'not downloaded yet' } as const;
const downloadFailed = { kind: 'missing', detail: 'the download failed' } as const;

function facts(overrides: Partial<LaunchFacts>): LaunchFacts {
  return {
    platform: 'linux',
    env: { DISPLAY: ':0' },
    isRoot: false,
    binary: present,
    downloadAttempted: false,
    ...overrides,
  };
}

describe('npm start: Electron or web mode', () => {
  it('launches Electron when the binary and a display are there', () => {
    expect(planLaunch(facts({}))).toEqual({ action: 'electron', binaryPath: present.path });
    expect(planLaunch(facts({ env: { WAYLAND_DISPLAY: 'wayland-0' } }))).toEqual({
      action: 'electron',
      binaryPath: present.path,
    });
  });

  it('tries to fetch a missing binary once, where a display could show it', () => {
    expect(planLaunch(facts({ binary: notDownloaded }))).toEqual({ action: 'download' });
  });

  it('falls back with one line when the binary is missing and the download failed', () => {
    const plan = planLaunch(facts({ binary: downloadFailed, downloadAttempted: true }));
    expect(plan).toEqual({
      action: 'web',
      reasons: ['no Electron binary: the download failed'],
      message: 'Electron cannot run here (no Electron binary: the download failed); starting web mode instead.',
    });
  });

  it('does not try the download when told not to', () => {
    const plan = planLaunch(facts({ binary: notDownloaded, env: { DISPLAY: ':0', [NO_DOWNLOAD_ENV]: '1' } }));
    expect(plan).toMatchObject({ action: 'web', reasons: ['no Electron binary: not downloaded yet'] });
  });

  it('falls back without a display', () => {
    expect(planLaunch(facts({ env: {} }))).toEqual({
      action: 'web',
      reasons: ['no display: DISPLAY and WAYLAND_DISPLAY are unset'],
      message:
        'Electron cannot run here (no display: DISPLAY and WAYLAND_DISPLAY are unset); starting web mode instead.',
    });
  });

  it('does not download what could not be shown, but says the binary is missing too', () => {
    expect(planLaunch(facts({ env: {}, binary: notDownloaded }))).toEqual({
      action: 'web',
      reasons: ['no display: DISPLAY and WAYLAND_DISPLAY are unset', 'no Electron binary: not downloaded yet'],
      message:
        'Electron cannot run here (no display: DISPLAY and WAYLAND_DISPLAY are unset; no Electron binary: not downloaded yet); starting web mode instead.',
    });
  });

  it('needs no DISPLAY on macOS or Windows', () => {
    expect(missingDisplay('darwin', {})).toBeNull();
    expect(missingDisplay('win32', {})).toBeNull();
    expect(planLaunch(facts({ platform: 'darwin', env: {} }))).toMatchObject({ action: 'electron' });
    expect(planLaunch(facts({ platform: 'win32', env: {}, binary: notDownloaded }))).toEqual({ action: 'download' });
  });

  it('falls back as root on Linux rather than run Chromium without its sandbox', () => {
    expect(planLaunch(facts({ isRoot: true }))).toMatchObject({
      action: 'web',
      reasons: ["running as root, where Chromium's sandbox will not start"],
    });
    expect(planLaunch(facts({ isRoot: true, platform: 'darwin' }))).toMatchObject({ action: 'electron' });
    expect(planLaunch(facts({ isRoot: true, env: {} }))).toMatchObject({
      message:
        "Electron cannot run here (no display: DISPLAY and WAYLAND_DISPLAY are unset; running as root, where Chromium's sandbox will not start); starting web mode instead.",
    });
  });

  it('falls back when Electron dies while starting, not when the app ends', () => {
    expect(startupFailure(1, 300)).toBe('Electron exited with code 1 while starting');
    expect(startupFailure(0, 300)).toBeNull(); // a second launch hands over to the first and quits
    expect(startupFailure(1, STARTUP_FAILURE_WINDOW_MS + 1)).toBeNull();
  });

  it('says why in exactly one line', () => {
    expect(fallbackMessage(['a', 'b'])).not.toContain('\n');
  });
});
