/**
 * What `npm start` does on this machine, decided from facts gathered elsewhere: launch Electron,
 * try to fetch its binary first, or fall back to web mode with one line that says why.
 * Pure, so each case is a plain test; see run-start.ts for the side effects.
 */

export type BinaryState =
  | { kind: 'present'; path: string }
  /** `detail` completes "no Electron binary: ...", e.g. "not downloaded yet" or "the download failed". */
  | { kind: 'missing'; detail: string };

export interface LaunchFacts {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  /** Linux only: Chromium's sandbox will not start as root, and we never turn it off to make it. */
  isRoot: boolean;
  binary: BinaryState;
  /** Whether the one download attempt of this run was already made. */
  downloadAttempted: boolean;
}

export type LaunchPlan =
  | { action: 'electron'; binaryPath: string }
  | { action: 'download' }
  | { action: 'web'; reasons: string[]; message: string };

/** Environment variable that turns the download attempt off (offline machines, CI). */
export const NO_DOWNLOAD_ENV = 'PROVISIONER_NO_ELECTRON_DOWNLOAD';

/** Why no window can be shown, or null when one can. macOS and Windows always have a desktop. */
export function missingDisplay(platform: NodeJS.Platform, env: LaunchFacts['env']): string | null {
  if (platform === 'darwin' || platform === 'win32') return null;
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return null;
  return 'no display: DISPLAY and WAYLAND_DISPLAY are unset';
}

export function planLaunch(facts: LaunchFacts): LaunchPlan {
  const reasons: string[] = [];
  const display = missingDisplay(facts.platform, facts.env);
  if (display) reasons.push(display);
  if (facts.platform === 'linux' && facts.isRoot)
    reasons.push("running as root, where Chromium's sandbox will not start");
  if (reasons.length > 0) {
    // Electron could not run anyway: fetching a 100 MB binary would only delay web mode.
    if (facts.binary.kind === 'missing') reasons.push(`no Electron binary: ${facts.binary.detail}`);
    return web(reasons);
  }
  if (facts.binary.kind === 'present') return { action: 'electron', binaryPath: facts.binary.path };
  if (!facts.downloadAttempted && !facts.env[NO_DOWNLOAD_ENV]) return { action: 'download' };
  return web([`no Electron binary: ${facts.binary.detail}`]);
}

/** The one line `npm start` prints before falling back. */
export function fallbackMessage(reasons: readonly string[]): string {
  return `Electron cannot run here (${reasons.join('; ')}); starting web mode instead.`;
}

function web(reasons: string[]): LaunchPlan {
  return { action: 'web', reasons, message: fallbackMessage(reasons) };
}

/** An Electron that fails this soon failed to start (missing libraries, no usable display), not after use. */
export const STARTUP_FAILURE_WINDOW_MS = 5_000;

/** Why to fall back to web mode after Electron exited, or null when its exit is simply the app's end. */
export function startupFailure(exitCode: number, runMs: number): string | null {
  if (exitCode === 0 || runMs >= STARTUP_FAILURE_WINDOW_MS) return null;
  return `Electron exited with code ${exitCode} while starting`;
}
