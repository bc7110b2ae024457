import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { runInherited } from './child-process';
import { downloadElectronBinary } from './electron-download';
import { findElectronBinary } from './electron-binary';
import { fallbackMessage, planLaunch, startupFailure, type BinaryState, type LaunchFacts } from './launch-decision';

export interface StartOptions {
  projectRoot: string;
  /** Arguments after `npm start --`, passed to Electron or to web mode. */
  args: readonly string[];
  /** scripts/build.mjs: everything for Electron, the renderer alone for web mode. */
  build: (target: 'electron' | 'web') => Promise<void>;
  env?: NodeJS.ProcessEnv;
  /** Defaults to whether this process runs as root (tests set it). */
  isRoot?: boolean;
}

/** `npm start`: Electron where it can run, else one line saying why and web mode. Resolves with the exit code. */
export async function runStart({
  projectRoot,
  args,
  build,
  env = process.env,
  isRoot = runningAsRoot(),
}: StartOptions): Promise<number> {
  let binary: BinaryState = findElectronBinary(projectRoot, env);
  let downloadAttempted = false;
  const facts = (): LaunchFacts => ({
    platform: process.platform,
    env,
    isRoot,
    binary,
    downloadAttempted,
  });

  let plan = planLaunch(facts());
  if (plan.action === 'download') {
    downloadAttempted = true;
    const result = await downloadElectronBinary({
      projectRoot,
      env,
      onStart: () => console.log('Fetching the Electron binary (first run only)...'),
    });
    binary = result.ok ? findElectronBinary(projectRoot, env) : { kind: 'missing', detail: result.detail };
    plan = planLaunch(facts());
  }

  if (plan.action === 'electron') {
    await build('electron');
    const childEnv = { ...env };
    // Set in a parent shell it would make the binary a plain Node.js and ignore the app.
    delete childEnv.ELECTRON_RUN_AS_NODE;
    const launchedAt = Date.now();
    const code = await runInherited(plan.binaryPath, ['.', ...args], { cwd: projectRoot, env: childEnv });
    const failure = startupFailure(code, Date.now() - launchedAt);
    if (!failure) return code;
    console.log(fallbackMessage([failure]));
    await build('web');
    return startWebMode(projectRoot, args, env);
  }
  if (plan.action === 'web') {
    console.log(plan.message);
    await build('web');
    return startWebMode(projectRoot, args, env);
  }
  throw new Error('unreachable: a second download was planned');
}

/** `npm run web`, i.e. `tsx main/hosts/web/cli.ts`: it prints the address to open. */
export async function startWebMode(
  projectRoot: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const entry = join(projectRoot, 'main', 'hosts', 'web', 'cli.ts');
  if (!existsSync(entry)) {
    console.error(`Web mode is not available in this checkout (${entry} is missing).`);
    return 1;
  }
  const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
  return runInherited(process.execPath, [tsxCli, entry, ...args], { cwd: projectRoot, env });
}

function runningAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}
