/**
 * `npm run dist:linux` for real, as an administrator meets its packages: builds both once (lintian
 * checks them in the build, and any error fails it), installs them with dpkg -i, runs the CLI from
 * PATH, finds its man page, completes `provisioner dev<TAB>` in bash, starts the service the way
 * its systemd unit's ExecStart would (its user, directory, env file; no systemd needed) on the
 * embedded database and, when CI has one, on PostgreSQL, and gets /readyz ready; then purges both
 * and shows that nothing of them is left: not a file of theirs, not their user, not their data.
 *
 * It installs packages on this machine, so it runs as root only (CI is) and never over an
 * installed `provisioner` (the desktop app's package has that name too); it purges what it
 * installed however it ends.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_HEAP_FLAGS } from '../../scripts/service-heap.mjs';
import { runProcess, type ProcessRun } from '../fixtures/run-process';
import { POSTGRES_URL, scratchDatabase, type ScratchDatabase } from '../server/postgres-cluster';

const root = join(import.meta.dirname, '..', '..');
const PACKAGES = ['provisioner', 'provisioner-service'] as const;
const SERVICE_USER = 'provisioner-service';
const ENV_FILE = '/etc/provisioner-service/service.env';
const UNIT_FILE = '/lib/systemd/system/provisioner-service.service';
const DATA_DIR = '/var/lib/provisioner-service';
/** Where packages may put anything; the purge is checked over all of them. */
const WATCHED = ['/etc', '/usr', '/var/lib'];

/**
 * docs/operations.md's lines, as written there (test/server/operations-runbook.test.ts checks that
 * each appears here): the install, which is also the upgrade, and the PostgreSQL secrets.
 */
const INSTALL = 'dpkg -i ./provisioner-service_*_amd64.deb ./provisioner_*_amd64.deb';
const POSTGRES_SECRETS = String.raw`install -m 600 -o provisioner-service -g provisioner-service /dev/null /etc/provisioner-service/database-password
printf '%s\n' "$DATABASE_PASSWORD" > /etc/provisioner-service/database-password
(umask 077; openssl rand -base64 32 > /etc/provisioner-service/sealing-key)
chown provisioner-service:provisioner-service /etc/provisioner-service/sealing-key`;
/** The runbook's copy of the unit starts with this line. */
const UNIT_IN_RUNBOOK = '# /lib/systemd/system/provisioner-service.service (from the provisioner-service package)';

const hasDpkgDeb = spawnSync('dpkg-deb', ['--version']).status === 0;
const isRoot = process.getuid?.() === 0;
const skipReason = !hasDpkgDeb
  ? 'dpkg-deb is not installed'
  : !isRoot
    ? 'installing packages needs root (CI runs as root)'
    : undefined;
if (skipReason) console.warn(`debian-packages.test.ts skipped: ${skipReason}.`);

/** Runs a command to its end (from the test's scratch folder unless told). */
function run(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<ProcessRun> {
  return runProcess(command, args, { cwd: options.cwd ?? work, env: options.env });
}

/** Every path under the watched folders (find's list; the machine's own churn elsewhere is not looked at). */
function pathsUnderWatched(): Set<string> {
  const found = spawnSync('find', [...WATCHED, '-xdev'], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  return new Set(found.stdout.split('\n').filter(Boolean));
}

function installed(name: string): boolean {
  const status = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  return status.status === 0 && /\binstalled\b/.test(status.stdout) && !/not-installed/.test(status.stdout);
}

/** KEY=VALUE lines of a systemd environment file (comments and blank lines skipped). */
function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (match) env[match[1]!] = match[2]!.replace(/^"(.*)"$/, '$1');
  }
  return env;
}

/** The assignments of a unit's Environment= setting: `"NAME=value with spaces"` or `NAME=value`, several separated by spaces. */
function parseUnitEnvironment(setting: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [, quoted, bare] of (setting ?? '').matchAll(/"([^"]*)"|(\S+)/g)) {
    const assignment = quoted ?? bare!;
    const at = assignment.indexOf('=');
    if (at > 0) env[assignment.slice(0, at)] = assignment.slice(at + 1);
  }
  return env;
}

/** The heap limit, in bytes, of this Node started with `flags` (the packaged executable embeds the Node that built it). */
function heapLimitOfNodeWith(flags: readonly string[]): number {
  const { NODE_OPTIONS: _ignored, ...env } = process.env;
  const script = "process.stdout.write(String(require('node:v8').getHeapStatistics().heap_size_limit))";
  return Number(spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8', env }).stdout);
}

/** The [Service] settings of a unit file. */
function parseUnit(text: string): Record<string, string> {
  const settings: Record<string, string> = {};
  let section = '';
  for (const line of text.split('\n')) {
    const header = /^\[(\w+)\]$/.exec(line.trim());
    if (header) section = header[1]!;
    const setting = /^(\w+)=(.*)$/.exec(line);
    if (section === 'Service' && setting) settings[setting[1]!] = setting[2]!;
  }
  return settings;
}

/** The user's ids, from the system's databases. */
function idsOf(user: string): { uid: number; gid: number } {
  const entry = spawnSync('getent', ['passwd', user], { encoding: 'utf8' }).stdout.split(':');
  return { uid: Number(entry[2]), gid: Number(entry[3]) };
}

function groupId(group: string): number {
  return Number(spawnSync('getent', ['group', group], { encoding: 'utf8' }).stdout.split(':')[2]);
}

interface StartedService {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
  argv: string[];
}

/**
 * Starts the service as its unit's ExecStart would: the unit's User, Group and WorkingDirectory,
 * the environment from its Environment= and then its EnvironmentFile, which wins, as systemd does
 * (and nothing of ours), and the command line with ${VAR} expanded from it.
 */
async function startAsTheUnitWould(): Promise<StartedService> {
  const unit = parseUnit(readFileSync(UNIT_FILE, 'utf8'));
  const env = {
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    ...parseUnitEnvironment(unit.Environment),
    ...parseEnvFile(readFileSync(unit.EnvironmentFile!, 'utf8')),
  };
  const argv = unit
    .ExecStart!.split(/\s+/)
    .map((word) => word.replace(/\$\{(\w+)\}/g, (_, name: string) => env[name as keyof typeof env] ?? ''));
  const { uid, gid } = idsOf(unit.User!);
  expect(groupId(unit.Group!)).toBe(gid);
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: unit.WorkingDirectory,
    env,
    uid,
    gid,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = /^listening on (http:\/\/[^\s]+)\n/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`${argv.join(' ')} exited ${code}: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr, exited, argv };
}

/** /readyz until it answers 200 (migrations may still run), a bounded number of times. */
async function readyz(url: string): Promise<{ status: number; body: unknown }> {
  let last = { status: 0, body: undefined as unknown };
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const response = await fetch(`${url}/readyz`);
    last = { status: response.status, body: await response.json() };
    if (response.status === 200) return last;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return last;
}

/** Stops the service with SIGTERM, as systemd does; answers its exit code and what of its user still runs. */
async function stop(service: StartedService): Promise<{ code: number | null; left: string }> {
  service.child.kill('SIGTERM');
  const code = await service.exited;
  const left = spawnSync('ps', ['-u', SERVICE_USER, '-o', 'pid=,args='], { encoding: 'utf8' }).stdout.trim();
  return { code, left };
}

/** Replaces (or adds) KEY=VALUE settings in the env file, as an administrator edits it. */
function setInEnvFile(settings: Record<string, string>): void {
  let text = readFileSync(ENV_FILE, 'utf8');
  for (const [key, value] of Object.entries(settings)) {
    const line = new RegExp(`^#?${key}=.*$`, 'm');
    text = line.test(text) ? text.replace(line, `${key}=${value}`) : `${text}${key}=${value}\n`;
  }
  writeFileSync(ENV_FILE, text);
}

let work: string;
let version: string;
let built: Array<{ name: string; file: string; lintian: string | undefined }> = [];
let before: Set<string>;
let listed = new Map<string, string[]>();
let running: StartedService | undefined;
let database: ScratchDatabase | undefined;

function purge(): ProcessRun {
  const result = spawnSync('dpkg', ['--purge', ...PACKAGES], { encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.skipIf(skipReason !== undefined)('the Debian packages, installed, used and purged', () => {
  // Building is slow (two 100 MB executables, lintian over each): one build, no time limit.
  beforeAll(async () => {
    for (const name of PACKAGES) {
      if (installed(name))
        throw new Error(
          `${name} is installed on this machine; this test installs and purges it: remove it first (dpkg --purge ${name}).`,
        );
    }
    version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
    work = mkdtempSync(join(tmpdir(), 'provisioner-debian-test-'));
    // gzip rather than the default xz: the same packages, minutes sooner (scripts/dist-linux.mjs).
    const build = await run(
      process.execPath,
      [join(root, 'scripts', 'dist-linux.mjs'), '--out', join(work, 'out'), '--compression', 'gzip'],
      { cwd: root },
    );
    if (build.code !== 0) throw new Error(`npm run dist:linux failed:\n${build.stderr}${build.stdout}`);
    built = PACKAGES.map((name) => {
      const file = join(work, 'out', `${name}_${version}_amd64.deb`);
      // dist-linux says per package "Built FILE; lintian: clean", "…; lintian:" and its findings, or that lintian is not installed.
      const line =
        build.stdout.split('\n').find((text) => text.startsWith('Built ') && text.includes(`${name}_${version}_`)) ??
        '';
      return { name, file, lintian: /; lintian:/.test(line) ? line : undefined };
    });
    before = pathsUnderWatched();
    const install = await run('bash', ['-euo', 'pipefail', '-c', INSTALL], { cwd: join(work, 'out') });
    if (install.code !== 0) throw new Error(`${INSTALL} failed:\n${install.stderr}${install.stdout}`);
    listed = new Map(
      PACKAGES.map((name) => [
        name,
        spawnSync('dpkg', ['-L', name], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean),
      ]),
    );
  }, 0);

  afterAll(async () => {
    if (running && running.child.exitCode === null) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
    if (PACKAGES.some(installed)) purge();
    await database?.drop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 0);

  it('are built by dpkg-deb as provisioner_VERSION_amd64.deb and provisioner-service_VERSION_amd64.deb, lintian-checked', () => {
    for (const pkg of built) {
      expect(existsSync(pkg.file), pkg.file).toBe(true);
      const fields = spawnSync('dpkg-deb', ['--field', pkg.file, 'Package', 'Version', 'Architecture'], {
        encoding: 'utf8',
      }).stdout;
      expect(fields).toBe(`Package: ${pkg.name}\nVersion: ${version}\nArchitecture: amd64\n`);
      // The build fails on any lintian error; here, that lintian ran at all (.ci/run installs it).
      expect(pkg.lintian, 'lintian is not installed, so the packages were not checked').toBeDefined();
    }
  });

  it('put the CLI on PATH: provisioner --version', async () => {
    const result = await run('provisioner', ['--version'], { env: { PATH: '/usr/bin:/bin', HOME: work } });
    expect(result).toEqual({ code: 0, stdout: `${version} (node ${process.version})\n`, stderr: '' });
  });

  it('install the man pages made from the commands’ own help: man -w provisioner', async () => {
    const where = await run('man', ['-w', 'provisioner']);
    expect(where).toMatchObject({ code: 0, stdout: '/usr/share/man/man1/provisioner.1.gz\n' });
    expect((await run('man', ['-w', 'provisioner-service'])).stdout).toBe(
      '/usr/share/man/man8/provisioner-service.8.gz\n',
    );
    // The page says what --help says, nested commands included, and groff finds nothing wrong in it.
    const page = await run('man', ['--warnings', '-P', 'cat', 'provisioner'], {
      env: { ...process.env, MANWIDTH: '200', LC_ALL: 'C.UTF-8' },
    });
    expect(page.stderr).toBe('');
    const help = await run('provisioner', ['device', 'firmware', 'update', '--help'], {
      env: { PATH: '/usr/bin:/bin', HOME: work },
    });
    const description = help.stdout.split('\n\n')[1]!.replace(/\s+/g, ' ').trim();
    // Joined again where groff hyphenated a word at a line's end.
    const text = page.stdout
      .replace(/\u2010\n\s*/g, '')
      .replace(/[\u2010\u2212]/g, '-')
      .replace(/\s+/g, ' ');
    expect(text).toContain('provisioner device firmware update [options]');
    expect(text).toContain(description);
  });

  it('complete provisioner dev<TAB> to device in bash, and a nested command', async () => {
    // An interactive bash with nothing of the machine's (no rc files), the package's completion
    // sourced, and the function `complete -p` names called as bash calls it for the TAB.
    const script = [
      'source /usr/share/bash-completion/completions/provisioner',
      'fn=$(complete -p provisioner | sed -n "s/.*-F \\([^ ]*\\) .*/\\1/p")',
      'complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=(); "$fn" provisioner "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; echo "${COMPREPLY[*]}"; }',
      'complete_words provisioner dev',
      'complete_words provisioner --data-dir /tmp device firmware up',
      'complete_words provisioner device update --tech',
    ].join('\n');
    const result = await run('bash', ['--norc', '--noprofile', '-i', '-c', script], {
      env: { PATH: '/usr/bin:/bin', HOME: work, TERM: 'dumb' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')).toEqual(['device', 'update', '--technician', '']);
  });

  it('start the service as its unit would, on the embedded database, ready on a free loopback port; SIGTERM stops it all', async () => {
    // Port 0 in the settings: the service takes a free one and says which (systemd's journal would show the line).
    setInEnvFile({ PROVISIONER_PORT: '0' });
    const data = statSync(DATA_DIR);
    expect({ mode: (data.mode & 0o777).toString(8), uid: data.uid }).toEqual({
      mode: '700',
      uid: idsOf(SERVICE_USER).uid,
    });
    expect((statSync(ENV_FILE).mode & 0o777).toString(8)).toBe('600');

    running = await startAsTheUnitWould();
    expect(running.argv).toEqual(['/usr/sbin/provisioner-service', 'serve', '--host', '127.0.0.1', '--port', '0']);
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    expect(await readyz(running.url)).toEqual({ status: 200, body: { status: 'ready' } });
    // The unit's NODE_OPTIONS bounds the heap (scripts/service-heap.mjs): the limit the service reports is that of a Node given those flags.
    const metrics = await fetch(`${running.url}/metrics`).then((answer) => answer.text());
    expect(/^provisioner_heap_size_limit_bytes (\d+)$/m.exec(metrics)?.[1]).toBe(
      String(heapLimitOfNodeWith(SERVICE_HEAP_FLAGS)),
    );
    // The embedded database lives in the data directory, the service user's alone.
    expect(readdirSync(join(DATA_DIR, 'data'))).toContain('PG_VERSION');
    expect(statSync(join(DATA_DIR, 'data')).uid).toBe(idsOf(SERVICE_USER).uid);

    expect(await stop(running)).toEqual({ code: 0, left: '' });
  });

  it('install the unit docs/operations.md shows, line for line', () => {
    const runbook = readFileSync(join(root, 'docs', 'operations.md'), 'utf8');
    const at = runbook.indexOf(`    ${UNIT_IN_RUNBOOK}\n`);
    expect(at, 'the unit in docs/operations.md').toBeGreaterThan(-1);
    const lines: string[] = [];
    for (const line of runbook.slice(at).split('\n').slice(1)) {
      if (line !== '' && !line.startsWith('    ')) break;
      lines.push(line.slice(4));
    }
    expect(`${lines.join('\n').trimEnd()}\n`).toBe(readFileSync(UNIT_FILE, 'utf8'));
  });

  it('upgrade in place with the same dpkg -i line: the edited settings, the data and the user stay, and the service starts on them', async () => {
    const settings = readFileSync(ENV_FILE, 'utf8');
    const { uid } = idsOf(SERVICE_USER);
    const upgrade = await run('bash', ['-euo', 'pipefail', '-c', INSTALL], { cwd: join(work, 'out') });
    expect(upgrade.code, upgrade.stderr).toBe(0);
    expect(readFileSync(ENV_FILE, 'utf8')).toBe(settings);
    expect(idsOf(SERVICE_USER).uid).toBe(uid);
    expect(readdirSync(join(DATA_DIR, 'data'))).toContain('PG_VERSION');

    running = await startAsTheUnitWould();
    expect(await readyz(running.url)).toEqual({ status: 200, body: { status: 'ready' } });
    expect(await stop(running)).toEqual({ code: 0, left: '' });
  });

  it.skipIf(!POSTGRES_URL)(
    'start the service as its unit would on PostgreSQL: the URL, the password file and the sealing key from the env file, none on the command line',
    async () => {
      database = await scratchDatabase();
      const url = new URL(database.url);
      url.password = '';
      // As docs/operations.md tells the administrator: both files 0600, the service user's.
      const passwordFile = '/etc/provisioner-service/database-password';
      const sealingKeyFile = '/etc/provisioner-service/sealing-key';
      const secrets = await run('bash', ['-euo', 'pipefail', '-c', POSTGRES_SECRETS], {
        env: { ...process.env, DATABASE_PASSWORD: randomBytes(16).toString('hex') },
      });
      expect(secrets.code, secrets.stderr).toBe(0);
      for (const file of [passwordFile, sealingKeyFile]) {
        const { mode, uid } = statSync(file);
        expect({ file, mode: (mode & 0o777).toString(8), uid }).toEqual({
          file,
          mode: '600',
          uid: idsOf(SERVICE_USER).uid,
        });
      }
      setInEnvFile({
        DATABASE_URL: url.toString(),
        PROVISIONER_DATABASE_PASSWORD_FILE: passwordFile,
        PROVISIONER_SEALING_KEY_FILE: sealingKeyFile,
      });

      running = await startAsTheUnitWould();
      expect(await readyz(running.url)).toEqual({ status: 200, body: { status: 'ready' } });
      const commandLine = readFileSync(`/proc/${running.child.pid}/cmdline`, 'utf8').split('\0').join(' ');
      expect(commandLine).not.toContain('postgres');
      expect(running.stderr()).toMatch(/"database":"postgres"/);
      expect(await stop(running)).toEqual({ code: 0, left: '' });
    },
  );

  it('purge to nothing: no file of theirs, no user, no data directory, no configuration', async () => {
    const { uid } = idsOf(SERVICE_USER);
    const result = purge();
    expect(result.code, result.stderr).toBe(0);
    for (const name of PACKAGES) expect(installed(name), name).toBe(false);

    expect(existsSync(DATA_DIR)).toBe(false);
    expect(existsSync('/etc/provisioner-service')).toBe(false);
    expect(spawnSync('getent', ['passwd', SERVICE_USER]).status).not.toBe(0);
    expect(spawnSync('getent', ['group', SERVICE_USER]).status).not.toBe(0);

    // Every path dpkg listed for them is gone, unless it was there before (/usr, /usr/share/man…).
    const after = pathsUnderWatched();
    // (/lib is /usr/lib on a merged-/usr system: a path is compared by where it leads.)
    const theirs = [...listed.values()].flat().filter((path) => path !== '/.' && !before.has(path));
    expect(theirs.length).toBeGreaterThan(20);
    expect(theirs.filter((path) => existsSync(path) && !before.has(realpathSync(path)))).toEqual([]);
    // And nothing new of theirs anywhere under /etc, /usr and /var/lib: what their scripts made
    // (the user's data, systemd's links and state) went too. Only paths naming them are checked,
    // since other work on this machine may add files meanwhile.
    const added = [...after].filter((path) => !before.has(path));
    expect(added.filter((path) => /provisioner/i.test(path))).toEqual([]);
    // Nor a file that belonged to the service's user, whatever its name.
    const owned = spawnSync('find', [...WATCHED, '/tmp', '-xdev', '-uid', String(uid)], {
      encoding: 'utf8',
    }).stdout.trim();
    expect(owned).toBe('');
  });
});
