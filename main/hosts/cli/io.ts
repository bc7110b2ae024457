import type { BleCentral, LinkFactoryDeps } from '../../devices';
import type { ReconnectPolicy } from '../../core/index';

/** The process around the CLI, passed in so tests can run `main` with captured output. */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
  /** Where the command was started: an earlier web mode left its data here (./.provisioner-data). */
  cwd: string;
}

/** Side effects tests replace: simulated BLE, a serial port opener, faster reconnects. */
export interface CliDeps {
  linkDeps?: LinkFactoryDeps;
  /** The BLE central discovery scans with; default the computer's adapter, when it has one. */
  bleCentral?: () => Promise<BleCentral>;
  reconnect?: Partial<ReconnectPolicy>;
  /** How long a device may take to come back after a pulled cable or a restart. */
  reconnectTimeoutMs?: number;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
