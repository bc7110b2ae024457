import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFirmwareBundle } from '../../../../domain/files/firmware-bundle';
import { decodeConfigFile } from '../../../../domain/files/config-file';
import { modesUnder } from '../../../fixtures/file-modes';
import { srcpToEpcOverIsm } from '../../../fixtures/typical-flows';
import { buildFlow } from '../../engine/jobs/helpers/flows';
import { loginCli, results, startWorld, type World } from '../../engine/jobs/helpers/world';

/**
 * The CLI as a user meets it: login and the key file, wrong input, downloads, cache and outbox,
 * JSON output, and exit codes. Where the process is what is tested, a run spawns the real
 * `provisioner` (bin/provisioner.mjs): the exit code the shell sees, --version's runtime, Ctrl-C,
 * the platform's directories, and every run whose files' modes are checked (the process sets its
 * umask). The others call its main in-process with captured output: the same commands, the same
 * answers, without two seconds of start-up each.
 */

let world: World;
beforeAll(async () => {
  world = await startWorld('cli');
  await buildFlow(world.client, srcpToEpcOverIsm);
}, 120_000);
afterAll(async () => {
  await world?.dispose();
});

describe('login', () => {
  it('refuses a wrong key with one line, and keeps nothing', { timeout: 120_000 }, async () => {
    const run = await world.cliInProcess([
      'login',
      '--url',
      world.url,
      '--org',
      world.orgId,
      '--api-key',
      'pk_not-a-real-key',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^error: the service refused the API key \(.+\); log in again: provisioner login --url URL --org ORG --api-key KEY\n$/,
    );
    await expect(stat(join(world.home, 'credentials.json'))).rejects.toThrow();
    await expect(stat(join(world.home, 'data', 'web', 'secrets.json'))).rejects.toThrow();
  });

  it('says what is missing', { timeout: 120_000 }, async () => {
    const run = await world.cliInProcess(['login', '--url', world.url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'error: login needs --url URL and --org ORGANIZATION (and --api-key KEY, $PROVISIONER_API_KEY or --api-key-stdin)\n',
    );
  });

  it('names an unreachable service', { timeout: 120_000 }, async () => {
    const closed = await closedPort();
    const run = await world.cliInProcess([
      'login',
      '--url',
      `http://127.0.0.1:${closed}`,
      '--org',
      'demo',
      '--api-key',
      'x',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^error: The service is unreachable.*; check the service URL and the network, or run again later\n$/,
    );
    // A technician's line names no method or route.
    expect(run.stderr).not.toMatch(/POST|\/v1\//);
  });

  it(
    'validates the key and keeps it in a file only the user can read; logout forgets it',
    { timeout: 120_000 },
    async () => {
      const run = await loginCli(world);
      expect(run.code, run.stderr).toBe(0);
      // The app's login store (web mode's data directory): the key in the secrets file, the rest in the settings.
      const store = join(world.home, 'data', 'web');
      const file = join(store, 'secrets.json');
      expect(run.stdout).toContain(
        `Logged in to organization demo at ${world.url} with key demo-admin (role Admin). Key kept in ${file} (readable only by you).`,
      );
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(store)).mode & 0o777).toBe(0o700);
      expect(Object.values(JSON.parse(await readFile(file, 'utf8')))).toEqual([world.adminKey]);
      const settings = join(store, 'settings.json');
      expect((await stat(settings)).mode & 0o777).toBe(0o600);
      expect(await readFile(settings, 'utf8')).not.toContain(world.adminKey);
      expect(JSON.parse(await readFile(settings, 'utf8'))).toMatchObject({
        resume: { kind: 'service', serviceUrl: world.url, orgId: 'demo', keyName: 'demo-admin', role: 'Admin' },
      });
      await expect(stat(join(world.home, 'credentials.json'))).rejects.toThrow();

      const status = await world.cliInProcess(['status']);
      expect(status.stdout).toContain(`Logged in to organization demo at ${world.url} (role Admin).`);

      const out = await world.cliInProcess(['logout']);
      expect(out.stdout).toContain(
        `Logged out of organization demo at ${world.url}; commands now use the local workspace.`,
      );
      // Logged out: the key is gone from the computer, not only the pointer to it.
      expect(await readFile(file, 'utf8')).not.toContain(world.adminKey);
      expect((await world.cliInProcess(['status'])).stdout).toContain('local workspace');
      expect((await loginCli(world)).code).toBe(0);
    },
  );
});

describe('usage', () => {
  it('answers 2 with one line for a command line that is wrong', { timeout: 120_000 }, async () => {
    const noDevice = await world.cli(['device', 'firmware', 'update']);
    expect(noDevice.code).toBe(2);
    expect(noDevice.stderr).toBe(
      'error: no device named: name the device by serial number, by --link (serial:/dev/ttyACM0, udp:192.168.3.10, ble:ADDRESS), or use --all\n',
    );
    const badLink = await world.cliInProcess(['device', 'firmware', 'update', '--link', 'usb:x']);
    expect(badLink.code).toBe(2);
    expect(badLink.stderr).toMatch(/^error: --link "usb:x" does not say how the device is attached\. Use serial:/);
    const unknown = await world.cliInProcess(['device', 'flash']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: unknown command 'flash'");
  });

  it('prints its version and the version of the Node runtime it runs on', { timeout: 120_000 }, async () => {
    const { version } = JSON.parse(await readFile(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const run = await world.cli(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${version} (node ${process.version})\n`);
  });
});

describe('where the CLI keeps its data', () => {
  it.runIf(process.platform === 'linux')(
    "keeps it in the user's XDG directories, under $PROVISIONER_HOME, or under --data-dir, which wins",
    { timeout: 120_000 },
    async () => {
      const base = join(world.root, 'places');
      await mkdir(base, { recursive: true });
      const xdg = {
        XDG_CONFIG_HOME: join(base, 'config'),
        XDG_DATA_HOME: join(base, 'share'),
        PROVISIONER_HOME: undefined,
      };
      const dirsOf = async (args: string[], env: NodeJS.ProcessEnv) => {
        const run = await world.cli([...args, '--json', 'status'], { platformDirs: true, cwd: base, env });
        expect(run.code, run.stderr).toBe(0);
        return JSON.parse(run.stdout) as { dataDir: string; configDir: string };
      };
      expect(await dirsOf([], xdg)).toMatchObject({
        configDir: join(base, 'config', 'provisioner'),
        dataDir: join(base, 'share', 'provisioner'),
      });
      expect((await stat(join(base, 'share', 'provisioner'))).mode & 0o777).toBe(0o700);
      expect((await stat(join(base, 'config', 'provisioner'))).mode & 0o777).toBe(0o700);
      const home = join(base, 'home');
      expect(await dirsOf([], { ...xdg, PROVISIONER_HOME: home })).toMatchObject({
        configDir: home,
        dataDir: join(home, 'data'),
      });
      const flag = join(base, 'flag');
      expect(await dirsOf(['--data-dir', flag], { ...xdg, PROVISIONER_HOME: home })).toMatchObject({
        configDir: flag,
        dataDir: join(flag, 'data'),
      });
    },
  );

  it.runIf(process.platform === 'linux')(
    "moves web mode's ./.provisioner-data into the data directory once, with a note on stderr",
    { timeout: 120_000 },
    async () => {
      const base = join(world.root, 'moving');
      const project = join(base, 'project');
      await mkdir(join(project, '.provisioner-data', 'app'), { recursive: true });
      await writeFile(join(project, '.provisioner-data', 'app', 'settings.json'), '{"resume":{"kind":"local"}}\n');
      const env = {
        XDG_CONFIG_HOME: join(base, 'config'),
        XDG_DATA_HOME: join(base, 'share'),
        PROVISIONER_HOME: undefined,
      };
      const web = join(base, 'share', 'provisioner', 'web');

      const first = await world.cli(['status'], { platformDirs: true, cwd: project, env });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toBe(
        `note: moved ${join(project, '.provisioner-data', 'app')} to ${web}: Provisioner keeps its data in your data directory now\n`,
      );
      expect(await readFile(join(web, 'settings.json'), 'utf8')).toBe('{"resume":{"kind":"local"}}\n');
      expect((await stat(join(web, 'settings.json'))).mode & 0o777).toBe(0o600);
      await expect(stat(join(project, '.provisioner-data'))).rejects.toThrow(/ENOENT/);

      const second = await world.cli(['status'], { platformDirs: true, cwd: project, env });
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).toBe('');
    },
  );
});

describe('files', () => {
  it('downloads firmware by type and by serial number, checked and cached', { timeout: 120_000 }, async () => {
    const dir = join(world.root, 'fw');
    const byType = await world.cliInProcess(['device', 'firmware', 'download', '-t', 'nscp', '-o', dir]);
    expect(byType.code, byType.stderr).toBe(0);
    expect(byType.stdout).toMatch(
      /^Saved .*\/NSCP-1\.1\.0\.zip: NSCP firmware 1\.1\.0 \(\d+ bytes, image SHA-256 and release key .+ checked\); also kept in the cache for offline installs\.\n$/,
    );
    const bySerial = await world.cliInProcess([
      '--json',
      'device',
      'firmware',
      'download',
      '-s',
      'SRCP000101',
      '-o',
      dir,
    ]);
    const saved = JSON.parse(bySerial.stdout) as { path: string; deviceType: string; version: string };
    expect(saved).toMatchObject({ deviceType: 'SRCP', version: '1.1.0' });
    expect(readFirmwareBundle(new Uint8Array(await readFile(saved.path))).version).toBe('1.1.0');
    expect((await readdir(dir)).sort()).toEqual(['NSCP-1.1.0.zip', 'SRCP-1.1.0.zip']);

    const both = await world.cliInProcess([
      'device',
      'firmware',
      'download',
      '-s',
      'SRCP000101',
      '-t',
      'EPC',
      '-o',
      dir,
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('error: give either -s SERIAL_NUMBER or -t TYPE\n');

    const cache = await world.cliInProcess(['--json', 'cache', 'list']);
    const listed = JSON.parse(cache.stdout) as { firmware: Array<{ deviceType: string; version: string }> };
    expect(listed.firmware.map((e) => `${e.deviceType} ${e.version}`).sort()).toEqual(['NSCP 1.1.0', 'SRCP 1.1.0']);
  });

  it(
    'downloads a configuration file with its syncId; refuses one of a device in no configuration',
    { timeout: 120_000 },
    async () => {
      const dir = join(world.root, 'config');
      const run = await world.cliInProcess(['device', 'configuration', 'download', 'EPC000101', '-o', dir]);
      expect(run.code, run.stderr).toBe(0);
      const bytes = new Uint8Array(await readFile(join(dir, 'EPC000101.cbor')));
      const decoded = decodeConfigFile(bytes);
      expect(run.stdout).toBe(
        `EPC000101: saved ${join(dir, 'EPC000101.cbor')} (${bytes.length} bytes, syncId ${decoded.syncId})\n`,
      );

      await world.client.devices.register({ serialNumber: 'WESP000101', name: 'spare' });
      const none = await world.cliInProcess(['device', 'configuration', 'download', 'WESP000101', '-o', dir]);
      expect(none.code).toBe(1);
      expect(none.stderr.trim().split('\n')).toHaveLength(1);
      expect(none.stderr).toContain('error: Device WESP000101 is in no configuration');
    },
  );

  it(
    "prefetches firmware for the types in use and the configured devices' files, then prunes",
    { timeout: 120_000 },
    async () => {
      const run = await world.cliInProcess(['cache', 'prefetch']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('Cached EPC firmware 1.1.0');
      expect(run.stdout).toContain('SRCP firmware 1.1.0 already cached.');
      expect(run.stdout).toContain('Kept the configuration files of EPC000101, SRCP000101.');
      const prune = await world.cliInProcess(['cache', 'prune', '--keep', '0']);
      expect(prune.stdout).toContain('Removed EPC firmware 1.1.0');
      expect((await world.cliInProcess(['cache'])).stdout).toContain('No firmware cached.');
    },
  );
});

describe('jobs', () => {
  it('prints JSON lines for machines and one error line per device not found', { timeout: 120_000 }, async () => {
    const device = await world.startDevice({ deviceType: 'SRCP', serialNumber: 'SRCP000101', link: 'pty' });
    const run = await world.cliInProcess(['--json', 'device', 'firmware', 'update', 'SRCP000101', 'EPC000199']);
    expect(run.code).toBe(1);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; message?: string });
    expect(lines.some((l) => l.event === 'progress')).toBe(true);
    expect(lines.find((l) => l.event === 'error')?.message).toMatch(
      /^EPC000199: no attached device answers as EPC000199 \(attached: SRCP000101\)/,
    );
    const [result] = results(run);
    expect(result?.job).toMatchObject({
      serialNumber: 'SRCP000101',
      phase: 'done',
      outcome: 'applied',
      firmwareVersion: '1.1.0',
      confirmation: 'sent',
    });
    expect(device.state().firmwareVersion).toBe('1.1.0');

    // In-process with captured output: the device already runs the latest.
    const again = await world.cliInProcess(['device', 'firmware', 'update', 'SRCP000101']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('SRCP000101: already runs firmware 1.1.0; nothing sent');
  });

  it(
    'cancels the running jobs on Ctrl-C; the cancel is confirmed and the next run resumes',
    { timeout: 180_000 },
    async () => {
      expect((await loginCli(world)).code).toBe(0);
      const device = await world.startDevice({
        deviceType: 'EPC',
        serialNumber: 'EPC000102',
        link: 'pty',
        baudRate: 115200,
      });
      await world.client.devices.register({ serialNumber: 'EPC000102', name: 'EPC000102' }).catch(() => undefined);
      let interrupted = false;
      const run = await world.cli(['device', 'firmware', 'update', 'EPC000102'], {
        onLine: (line, child) => {
          if (!interrupted && /Uploading firmware 1\.1\.0 — [1-9]\d%/.test(line)) {
            interrupted = true;
            child.kill('SIGINT');
          }
        },
      });
      expect(interrupted).toBe(true);
      expect(run.code).toBe(130);
      expect(run.stderr).toMatch(
        /error: EPC000102: cancelled during uploading at \d+%; run the same command again to resume \(failure confirmed to the service\)\n/,
      );
      expect(device.state().firmwareVersion).toBe('1.0.0');
      const resumed = await world.cliInProcess(['device', 'firmware', 'update', 'EPC000102']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(
        /EPC000102: firmware 1\.1\.0 installed \(was 1\.0\.0\); the upload resumed at [1-9]\d*%; confirmed to the service/,
      );
    },
  );

  it('cannot open a device that is not there, and says so in one line', { timeout: 120_000 }, async () => {
    const run = await world.cliInProcess([
      'device',
      'configuration',
      'update',
      '--link',
      'serial:/dev/provisioner-no-such-port',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^error: serial:\/dev\/provisioner-no-such-port: could not open the device: .*; check the cable and the address, then run the same command again\n/,
    );
    // Then the catalogue's words (docs/errors.md) and the code, for support.
    expect(run.stderr).toMatch(
      /\nnote: serial:\/dev\/provisioner-no-such-port: configuration: The port or address could not be opened .*\(DEVICE_UNREACHABLE\)\n$/,
    );
  });
});

describe('the local workspace', () => {
  it(
    'works without a login: the demo organization, its fleet registered, a simulated device updated',
    { timeout: 300_000 },
    async () => {
      const newcomer = join(world.root, 'newcomer');
      const status = await runIn(newcomer, ['status']);
      expect(status.stdout).toContain('Not logged in: commands use the local workspace');
      const key = await runIn(newcomer, ['signing-key']);
      expect(key.stdout).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
      const releaseKeys = await runIn(newcomer, ['release-keys']);
      expect(releaseKeys.stdout).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
      const device = await world.startDevice({
        deviceType: 'EPC',
        serialNumber: 'EPC000104',
        link: 'pty',
        publicKeyPem: key.stdout,
        releaseKeysPem: [releaseKeys.stdout],
      });
      const run = await runIn(newcomer, ['device', 'firmware', 'update', 'EPC000104']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('EPC000104: firmware 1.1.0 installed (was 1.0.0); confirmed to the service');
      expect(device.state().firmwareVersion).toBe('1.1.0');
      const outbox = await runIn(newcomer, ['outbox']);
      expect(outbox.stdout).toBe('The outbox is empty: the service has every confirmation.\n');
      // The login, the outbox, the cache and the workspace's database alike: the user's alone.
      expect(await modesUnder(newcomer)).toEqual({ dirs: [0o700], files: [0o600] });
    },
  );
});

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The CLI on another home directory than the world's (the later --data-dir wins). */
function runIn(home: string, args: string[]) {
  return world.cli(['--data-dir', home, ...args]);
}
