import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where simulated devices keep their ptys, state and BLE bridge sockets unless told otherwise:
 * `$PROVISIONER_SIMULATOR_DIR`, or `<tmp>/provisioner-simulator`.
 */
export function simulatorDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.PROVISIONER_SIMULATOR_DIR ?? join(tmpdir(), 'provisioner-simulator');
}

/**
 * The port glob that finds the ptys of simulated serial devices in `ptyDir`
 * (`PROVISIONER_PORTS=<that>` for the CLI and web mode). The device ends are dot files, which a
 * glob's `*` does not match.
 */
export function ptyGlob(ptyDir: string = join(simulatorDir(), 'pty')): string {
  return join(ptyDir, '*');
}
