import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where simulated devices keep their ptys, state, control and BLE bridge sockets unless told
 * otherwise: `$PROVISIONER_SIMULATOR_DIR`, else `$XDG_RUNTIME_DIR/provisioner-simulator`, else
 * `<tmp>/provisioner-simulator-<uid>`.
 *
 * The directory is the user's own: the CLI and the app open every pty the port glob matches in
 * it, so a pty put there by another local user would be taken for a device. It is created with
 * mode 0700 and refused (an Error saying why and what to do) when it is not a plain directory
 * owned by this user; one of ours with a wider mode is narrowed to 0700.
 */
export function simulatorDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = defaultSimulatorDir(env);
  ensureOwnPrivateDir(dir, env.PROVISIONER_SIMULATOR_DIR ? 'PROVISIONER_SIMULATOR_DIR' : 'the default');
  return dir;
}

/** The path `simulatorDir` uses, without creating or checking it. */
export function defaultSimulatorDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PROVISIONER_SIMULATOR_DIR) return env.PROVISIONER_SIMULATOR_DIR;
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'provisioner-simulator');
  const uid = process.getuid?.();
  return join(tmpdir(), uid === undefined ? 'provisioner-simulator' : `provisioner-simulator-${uid}`);
}

/**
 * Creates `dir` with mode 0700 if it is missing, then checks what is there now (another user may
 * have created it first): a directory, not a symbolic link, owned by this user. Narrows its mode
 * to 0700. Where the platform has no uids (Windows), only the kind is checked.
 */
function ensureOwnPrivateDir(dir: string, source: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const info = lstatSync(dir);
  const fix = `Remove it, or set PROVISIONER_SIMULATOR_DIR to a directory of your own (${source} was used).`;
  if (info.isSymbolicLink())
    throw new Error(
      `The simulator's directory ${dir} is a symbolic link, which another user may have placed there. ${fix}`,
    );
  if (!info.isDirectory()) throw new Error(`The simulator's directory ${dir} is not a directory. ${fix}`);
  const uid = process.getuid?.();
  if (uid === undefined) return;
  if (info.uid !== uid) {
    throw new Error(
      `The simulator's directory ${dir} belongs to uid ${info.uid}, not to you (uid ${uid}): ` +
        `that user could put a pty of their own where the port glob looks. ${fix}`,
    );
  }
  if ((info.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/**
 * The port glob that finds the ptys of simulated serial devices in `ptyDir`
 * (`PROVISIONER_PORTS=<that>` for the CLI and web mode). The device ends are dot files, which a
 * glob's `*` does not match.
 */
export function ptyGlob(ptyDir: string = join(simulatorDir(), 'pty')): string {
  return join(ptyDir, '*');
}
