import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startSimulatedDevice, type SimulatedDevice } from '../simulator';
import { processTreeCpu } from './fleet-cpu';

/**
 * The simulated devices of one fleet run, where the bench puts them: in a simulator process of
 * their own (`simulator --fleet FILE`, as a user starts it), so that the bench process holds the
 * host's side alone and each side's CPU can be read apart; or in the bench's own process, as the
 * bench did before (`--devices inline`), to compare.
 */
export interface FleetDevices {
  /** The host end of each device's pty, in the order of the serial numbers given. */
  readonly paths: readonly string[];
  /** CPU seconds so far of the devices' side: the simulator, and the socat processes behind the ptys. */
  cpu(): { devices: number; socat: number };
  stop(): Promise<void>;
}

export type DevicePlacement = 'process' | 'inline';

export interface FleetDevicesOptions {
  placement: DevicePlacement;
  serialNumbers: readonly string[];
  baudRate: number;
  /** Scratch directory of this run: state, ptys and the fleet file go under it. */
  dir: string;
  /** The service the simulator asks for its root key and the firmware release keys. */
  serviceUrl: string;
  publicKeyPem: string;
  releaseKeysPem: readonly string[];
  rebootMs: number;
  applyMs: number;
}

export function startFleetDevices(options: FleetDevicesOptions): Promise<FleetDevices> {
  return options.placement === 'process' ? startInSimulatorProcess(options) : startInThisProcess(options);
}

async function startInThisProcess(options: FleetDevicesOptions): Promise<FleetDevices> {
  const devices: SimulatedDevice[] = [];
  for (const serialNumber of options.serialNumbers) {
    devices.push(
      await startSimulatedDevice({
        deviceType: 'EPC',
        serialNumber,
        link: 'pty',
        baudRate: options.baudRate,
        stateDir: join(options.dir, 'state', serialNumber),
        ptyDir: join(options.dir, 'pty'),
        publicKeyPem: options.publicKeyPem,
        releaseKeysPem: options.releaseKeysPem,
        rebootMs: options.rebootMs,
        applyMs: options.applyMs,
      }),
    );
  }
  return {
    paths: devices.map((d) => d.descriptor.path!),
    // The devices' CPU is the bench's own here: it cannot be told apart from the host's.
    cpu: () => ({ devices: Number.NaN, socat: processTreeCpu(process.pid).children }),
    stop: async () => {
      await Promise.allSettled(devices.map((d) => d.stop()));
    },
  };
}

const repoRoot = fileURLToPath(new URL('../', import.meta.url));

async function startInSimulatorProcess(options: FleetDevicesOptions): Promise<FleetDevices> {
  await mkdir(options.dir, { recursive: true });
  const fleetFile = join(options.dir, 'fleet.json');
  await writeFile(
    fleetFile,
    JSON.stringify({
      defaults: { ptyDir: join(options.dir, 'pty'), rebootMs: options.rebootMs, applyMs: options.applyMs },
      devices: options.serialNumbers.map((serialNumber) => ({ deviceType: 'EPC', serialNumber, link: 'pty' })),
    }),
  );
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'simulator/cli.ts',
      '--fleet',
      fleetFile,
      '--state-dir',
      join(options.dir, 'state'),
      '--service-url',
      options.serviceUrl,
      '--baud',
      String(options.baudRate),
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // A bench that fails half-way must not leave the simulator and its socat processes behind.
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.off('exit', killOnExit);
      resolve();
    }),
  );
  const bySerial = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    const reader = createInterface({ input: child.stdout! });
    reader.on('line', (line) => {
      const descriptor = JSON.parse(line) as { serialNumber: string; path?: string };
      if (descriptor.path !== undefined) bySerial.set(descriptor.serialNumber, descriptor.path);
      if (bySerial.size === options.serialNumbers.length) resolve();
    });
    void exited.then(() => reject(new Error(`the simulator exited after ${bySerial.size} devices:\n${stderr}`)));
  });
  const pid = child.pid!;
  return {
    paths: options.serialNumbers.map((serial) => bySerial.get(serial)!),
    cpu: () => {
      const tree = processTreeCpu(pid);
      return { devices: tree.self, socat: tree.children };
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
