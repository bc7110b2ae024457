import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface DownloadOptions {
  projectRoot: string;
  env?: NodeJS.ProcessEnv;
  /** How long the download host may take to answer at all; a black-holed network fails here. */
  probeTimeoutMs?: number;
  /** The whole download and unpacking (about 100 MB). */
  timeoutMs?: number;
  /** Called once the host has answered and the real download begins (so a failed probe prints nothing). */
  onStart?: () => void;
}

export type DownloadResult = { ok: true } | { ok: false; detail: string };

const DEFAULT_MIRROR = 'https://github.com/electron/electron/releases/download/';

/** The mirror electron's install script will use (@electron/get reads the same variables). */
export function electronMirror(env: NodeJS.ProcessEnv): string {
  return (
    env.npm_config_electron_mirror ||
    env.NPM_CONFIG_ELECTRON_MIRROR ||
    env.npm_package_config_electron_mirror ||
    env.ELECTRON_MIRROR ||
    DEFAULT_MIRROR
  );
}

const PROXY_VARIABLES = [
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'GLOBAL_AGENT_HTTPS_PROXY',
  'GLOBAL_AGENT_HTTP_PROXY',
];

/**
 * Fetches the Electron binary once, through electron's own install script (which verifies it
 * against the checksums shipped in the package). It never hangs: first a quick look at whether
 * the download host answers at all, then the install script under a hard time limit, killed if
 * it overruns. Its own output is kept back; the caller says in one line what happened.
 */
export async function downloadElectronBinary({
  projectRoot,
  env = process.env,
  probeTimeoutMs = 4_000,
  timeoutMs = 180_000,
  onStart,
}: DownloadOptions): Promise<DownloadResult> {
  // Behind a proxy a direct probe proves nothing: leave it to the install script and its time limit.
  const behindProxy = PROXY_VARIABLES.some((name) => Boolean(env[name]));
  if (!behindProxy) {
    const reachable = await hostAnswers(electronMirror(env), probeTimeoutMs);
    if (!reachable.ok) return { ok: false, detail: `the download failed, ${reachable.detail}` };
  }
  onStart?.();
  return runInstallScript(join(projectRoot, 'node_modules', 'electron', 'install.js'), env, timeoutMs);
}

/** Any HTTP answer, even an error status, means the network reaches the host. */
export async function hostAnswers(url: string, timeoutMs: number): Promise<DownloadResult> {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return { ok: false, detail: `bad mirror URL ${url}` };
  }
  try {
    const response = await fetch(origin, {
      method: 'HEAD',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    return { ok: true };
  } catch (err) {
    const host = new URL(origin).host;
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    if (timedOut) return { ok: false, detail: `${host} did not answer within ${formatSeconds(timeoutMs)}` };
    const code = (err as { cause?: { code?: unknown } }).cause?.code;
    return { ok: false, detail: `${host} is unreachable${typeof code === 'string' ? ` (${code})` : ''}` };
  }
}

export function runInstallScript(script: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<DownloadResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-4_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ ok: false, detail: `the download failed, ${err.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) resolve({ ok: false, detail: `the download took longer than ${formatSeconds(timeoutMs)}` });
      else if (code === 0) resolve({ ok: true });
      else resolve({ ok: false, detail: `the download failed${summarise(output)}` });
    });
  });
}

/** The install script prints a stack trace; its first line is the part a person can use. */
function summarise(output: string): string {
  const line = output
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0 && !l.startsWith('at '));
  return line ? `, ${line.slice(0, 160)}` : '';
}

function formatSeconds(ms: number): string {
  return ms < 1_000 ? `${ms} ms` : `${Math.round(ms / 1_000)} s`;
}
