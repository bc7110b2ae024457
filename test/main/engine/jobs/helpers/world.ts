import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServiceClient, type ServiceClient } from '../../../../../main/cloud';
import type { CliDeps } from '../../../../../main/hosts/cli/io';
import type { DeviceType } from '../../../../../domain/device-types';
import type { LedgerEntry } from '../../../../../domain/ledger';
import type { ReleaseKeyPair } from '../../../../../domain/files/firmware-release-key';
import {
  loadDefaultReleaseKey,
  releaseKeyring,
  seedDemo,
  startService,
  type RunningService,
} from '../../../../../server';
import {
  serveSimulatedBle,
  startSimulatedDevice,
  type BleBridge,
  type SimulatedDevice,
  type SimulatedDeviceOptions,
} from '../../../../../simulator';
import { afterEach } from 'vitest';
import { runCliIn } from '../../../../fixtures/cli-in-process';
import { openedWhile, PER_FILE } from '../../../../fixtures/opened-while';

/**
 * One end-to-end world: the real service over HTTP on a PGlite directory of its own (seeded with
 * the demo organization: an Admin key, the demo fleet's manufacturing records, firmware 1.0.0 and
 * 1.1.0 of every type, 64 KiB images, signed with the directory's default release key), simulated
 * devices on ptys, UDP and BLE (served to other processes through the simulator's bridge) that
 * trust the release keys the service trusts, and the CLI with a home directory of its own.
 */
export interface World {
  root: string;
  home: string;
  simulatorDir: string;
  service: RunningService | undefined;
  url: string;
  port: number;
  orgId: string;
  adminKey: string;
  publicKeyPem: string;
  /** The service's default release key: it signed the demo firmware, and the devices trust it. */
  releaseKey: ReleaseKeyPair;
  client: ServiceClient;
  devices: SimulatedDevice[];
  ble: BleBridge | undefined;
  startDevice(
    options: { deviceType: DeviceType; serialNumber: string; link: 'pty' | 'udp' | 'ble' } & Omit<
      Partial<SimulatedDeviceOptions>,
      'link'
    >,
  ): Promise<SimulatedDevice>;
  /** `--link` spec that reaches a device (serial through discovery also works). */
  linkOf(device: SimulatedDevice): string;
  /**
   * The real CLI as a child process, on the world's home directory (`--data-dir`) unless
   * `platformDirs` (then where $PROVISIONER_HOME or the platform's places say); `onLine` sees each
   * stdout line as it comes.
   */
  cli(
    args: readonly string[],
    options?: {
      env?: NodeJS.ProcessEnv;
      cwd?: string;
      platformDirs?: boolean;
      onLine?: (line: string, child: ChildProcess) => void;
    },
  ): Promise<CliRun>;
  cliInProcess(args: readonly string[], deps?: CliDeps): Promise<CliRun>;
  stopService(): Promise<void>;
  startServiceAgain(): Promise<void>;
  dispose(): Promise<void>;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

const BIN = fileURLToPath(new URL('../../../../../bin/provisioner.mjs', import.meta.url));

/** Devices fast where the test is not about speed: 921600 baud, quick restarts. */
const FAST_DEVICE: Partial<SimulatedDeviceOptions> = { baudRate: 921600, rebootMs: 150, applyMs: 50 };

export async function startWorld(name: string): Promise<World> {
  const root = await mkdtemp(join(tmpdir(), `pv-e2e-${name}-`));
  const dbDir = join(root, 'service');
  let service: RunningService | undefined = await startService({ dataDir: dbDir, port: 0 });
  const releaseKey = await loadDefaultReleaseKey(dbDir);
  const seed = await seedDemo(service.db, { releaseKey });
  // What a device is made trusting: the keys the service trusts when the world starts.
  const releaseKeysPem = (await releaseKeyring(service.db)).keys.map((key) => key.publicKeyPem);
  const port = service.port;
  const url = service.url;
  const publicKeyPem = service.ctx.secrets.signingKey.publicKeyPem;
  const simulatorDir = join(root, 'sim');
  const home = join(root, 'home');
  const devices: SimulatedDevice[] = [];
  let ble: BleBridge | undefined;

  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    ...process.env,
    PROVISIONER_SIMULATOR_DIR: simulatorDir,
    // The CLI finds the simulated serial devices by a port glob, as it finds USB adapters.
    PROVISIONER_PORTS: join(simulatorDir, 'pty', '*'),
    ...(ble ? { PROVISIONER_SIMULATED_BLE: ble.endpoint } : { PROVISIONER_NO_BLE: '1' }),
    CI: '1',
    // The CLI speaks the environment's language (LC_ALL, then LC_MESSAGES, then LANG): English here
    // whatever the machine's locale, unless a test asks for another.
    LC_ALL: undefined,
    LC_MESSAGES: undefined,
    LANG: 'C.UTF-8',
    ...extra,
  });

  const world: World = {
    root,
    home,
    simulatorDir,
    get service() {
      return service;
    },
    url,
    port,
    orgId: seed.orgId,
    adminKey: seed.adminKey,
    publicKeyPem,
    releaseKey,
    client: createServiceClient({ baseUrl: url, orgId: seed.orgId, apiKey: seed.adminKey }),
    devices,
    get ble() {
      return ble;
    },
    async startDevice(options) {
      const { link, ...rest } = options;
      const device = await startSimulatedDevice({
        ...FAST_DEVICE,
        ...rest,
        link: link === 'udp' ? { udp: { host: '127.0.0.1', port: 0 } } : link,
        stateDir: join(root, 'devices', options.serialNumber),
        ptyDir: join(simulatorDir, 'pty'),
        publicKeyPem: rest.publicKeyPem ?? publicKeyPem,
        releaseKeysPem: rest.releaseKeysPem ?? releaseKeysPem,
      });
      devices.push(device);
      if (link === 'ble') {
        await ble?.close();
        ble = await serveSimulatedBle(
          join(root, 'ble.sock'),
          devices.filter((d) => d.descriptor.link === 'ble'),
        );
      }
      return device;
    },
    linkOf(device) {
      const d = device.descriptor;
      if (d.link === 'udp') return `udp:${d.host}:${d.port}`;
      if (d.link === 'ble') return `ble:${d.bleAddress}`;
      return `serial:${d.path}@921600`;
    },
    cli(args, options = {}) {
      return new Promise<CliRun>((resolve, reject) => {
        const dataDir = options.platformDirs ? [] : ['--data-dir', home];
        const child = spawn(process.execPath, [BIN, ...dataDir, ...args], {
          env: env(options.env),
          ...(options.cwd ? { cwd: options.cwd } : {}),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        let pending = '';
        child.stdout.on('data', (chunk: Buffer) => {
          const text = chunk.toString('utf8');
          stdout += text;
          if (!options.onLine) return;
          pending += text;
          const lines = pending.split('\n');
          pending = lines.pop() ?? '';
          for (const line of lines) options.onLine(line, child);
        });
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
      });
    },
    cliInProcess(args, deps = {}) {
      return runCliIn(home, args, { env: env(), cwd: root, deps });
    },
    async stopService() {
      await service?.close();
      service = undefined;
    },
    async startServiceAgain() {
      if (service) return;
      service = await startService({ dataDir: dbDir, port });
    },
    async dispose() {
      await ble?.close();
      await Promise.allSettled(devices.map((d) => d.stop()));
      await service?.close();
      await rm(root, { recursive: true, force: true });
    },
  };
  return world;
}

/** `provisioner login` against the world's service, as a technician would. */
export async function loginCli(world: World): Promise<CliRun> {
  return world.cli(['login', '--url', world.url, '--org', world.orgId, '--api-key', world.adminKey]);
}

/** `provisioner login` that must succeed: a refused login fails the test with what the CLI said. */
export async function logInCli(world: World): Promise<void> {
  const run = await loginCli(world);
  if (run.code !== 0) throw new Error(`provisioner login failed with exit code ${run.code}: ${run.stderr}`);
}

/** Registers the devices in the world's organization, each named after its serial number. */
export async function registerDevices(world: World, serialNumbers: readonly string[]): Promise<void> {
  for (const serialNumber of serialNumbers) await world.client.devices.register({ serialNumber, name: serialNumber });
}

/** A world for each test of the file that asks for one, disposed when that test ends. */
export function worldPerTest(): (name: string) => Promise<World> {
  let world: World | undefined;
  afterEach(async () => {
    await world?.dispose();
    world = undefined;
  });
  return async (name) => (world = await startWorld(name));
}

/** The entries of the CLI's provisioning ledger, oldest first, as the CLI wrote them. */
export async function ledgerEntries(world: World): Promise<LedgerEntry[]> {
  const lines = (await readFile(join(world.home, 'data', 'ledger', 'ledger.jsonl'), 'utf8')).trim().split('\n');
  return lines.map((line) => JSON.parse(line) as LedgerEntry);
}

/**
 * One world for all the tests of the file: started before them and made ready by `prepare` (a
 * flow built, the CLI logged in), disposed after them. The returned function gives it while they run.
 */
export function worldPerFile(name: string, prepare: (world: World) => Promise<unknown>): () => World {
  const open = async () => {
    const world = await startWorld(name);
    await prepare(world).catch(async (error: unknown) => {
      await world.dispose();
      throw error;
    });
    return world;
  };
  return openedWhile(PER_FILE, `The world "${name}"`, open, (world) => world.dispose(), 120_000);
}

/** What a finished job printed in --json mode. */
export function results(
  run: CliRun,
): Array<{ event: string; job: Record<string, unknown> & { serialNumber: string | null; phase: string } }> {
  return run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map(
      (line) =>
        JSON.parse(line) as {
          event: string;
          job: Record<string, unknown> & { serialNumber: string | null; phase: string };
        },
    )
    .filter((e) => e.event === 'result');
}
