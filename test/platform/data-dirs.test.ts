import { existsSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modesUnder } from '../fixtures/file-modes';
import {
  platformDirs,
  prepareDataDirs,
  resolveDataDirs,
  type DataDirs,
  type PlatformDirs,
} from '../../platform/data-dirs';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'provisioner-data-dirs-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const PLATFORM: PlatformDirs = { config: '/home/t/.config/provisioner', data: '/home/t/.local/share/provisioner' };

describe('where the CLI and web mode keep their data', () => {
  it("uses the platform's places unless --data-dir or $PROVISIONER_HOME names one directory; the flag wins", () => {
    expect(resolveDataDirs({}, undefined, () => PLATFORM)).toEqual({
      ...PLATFORM,
      web: '/home/t/.local/share/provisioner/web',
      chosen: false,
    });
    expect(resolveDataDirs({ PROVISIONER_HOME: '/srv/p' }, undefined, () => PLATFORM)).toEqual({
      config: '/srv/p',
      data: '/srv/p/data',
      web: '/srv/p/data/web',
      chosen: true,
    });
    expect(resolveDataDirs({ PROVISIONER_HOME: '/srv/p' }, '/tmp/run', () => PLATFORM)).toEqual({
      config: '/tmp/run',
      data: '/tmp/run/data',
      web: '/tmp/run/data/web',
      chosen: true,
    });
  });

  it.runIf(process.platform === 'linux')(
    'asks env-paths, which follows XDG on Linux, without a "-nodejs" suffix',
    () => {
      const saved = { config: process.env.XDG_CONFIG_HOME, data: process.env.XDG_DATA_HOME };
      try {
        process.env.XDG_CONFIG_HOME = '/x/config';
        process.env.XDG_DATA_HOME = '/x/data';
        expect(platformDirs()).toEqual({ config: '/x/config/provisioner', data: '/x/data/provisioner' });
      } finally {
        restore('XDG_CONFIG_HOME', saved.config);
        restore('XDG_DATA_HOME', saved.data);
      }
    },
  );
});

describe('preparing the data directories', () => {
  it('makes them readable by the user alone', async () => {
    const dirs = platformPlaces(join(scratch, 'fresh'));
    await prepareDataDirs(dirs, {
      cwd: join(scratch, 'fresh', 'cwd'),
      note: () => expect.unreachable(),
      warn: () => expect.unreachable(),
    });
    expect(modeOf(dirs.config)).toBe(0o700);
    expect(modeOf(dirs.data)).toBe(0o700);
  });

  it('makes private, with one warning line, what other users could read in them', async () => {
    const dirs = platformPlaces(join(scratch, 'loose'));
    await prepareDataDirs(dirs, {
      cwd: join(scratch, 'loose', 'cwd'),
      note: () => expect.unreachable(),
      warn: () => expect.unreachable(),
    });
    // What a copy made with another umask, or a person with a text editor, leaves behind.
    await mkdir(join(dirs.data, 'outbox'), { mode: 0o755 });
    await chmod(join(dirs.data, 'outbox'), 0o755);
    await writeFile(join(dirs.data, 'outbox', 'entry.json'), '{}', { mode: 0o644 });
    await chmod(join(dirs.data, 'outbox', 'entry.json'), 0o644);
    await writeFile(join(dirs.config, 'credentials.json'), '{}', { mode: 0o666 });
    await chmod(join(dirs.config, 'credentials.json'), 0o666);
    const warnings: string[] = [];

    await prepareDataDirs(dirs, {
      cwd: join(scratch, 'loose', 'cwd'),
      note: () => expect.unreachable(),
      warn: (line) => warnings.push(line),
    });
    expect(warnings).toEqual([
      `1 file in ${dirs.config} could be read by other users; made them private (files 0600, directories 0700)`,
      `1 file and 1 directory in ${dirs.data} could be read by other users; made them private (files 0600, directories 0700)`,
    ]);
    expect(modeOf(join(dirs.data, 'outbox'))).toBe(0o700);
    expect(modeOf(join(dirs.data, 'outbox', 'entry.json'))).toBe(0o600);
    expect(modeOf(join(dirs.config, 'credentials.json'))).toBe(0o600);

    await prepareDataDirs(dirs, {
      cwd: join(scratch, 'loose', 'cwd'),
      note: () => expect.unreachable(),
      warn: (line) => warnings.push(line),
    });
    expect(warnings).toHaveLength(2);
  });

  it("moves web mode's ./.provisioner-data/app into the data directory once, says so, and leaves the service's database", async () => {
    const root = join(scratch, 'move');
    const cwd = join(root, 'project');
    await legacyWebData(cwd);
    await mkdir(join(cwd, '.provisioner-data', 'service'), { recursive: true });
    const dirs = platformPlaces(root);
    const notes: string[] = [];

    await prepareDataDirs(dirs, { cwd, note: (line) => notes.push(line), warn: () => expect.unreachable() });
    expect(notes).toEqual([
      `moved ${join(cwd, '.provisioner-data', 'app')} to ${dirs.web}: Provisioner keeps its data in your data directory now`,
    ]);
    expect(await readFile(join(dirs.web, 'settings.json'), 'utf8')).toBe('{"resume":null}\n');
    expect(await readFile(join(dirs.web, 'workspace', 'service', 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect(existsSync(join(cwd, '.provisioner-data', 'app'))).toBe(false);
    expect(await readdir(join(cwd, '.provisioner-data'))).toEqual(['service']);
    expect(await modesUnder(dirs.web)).toEqual({ dirs: [0o700], files: [0o600] });

    // A second start, and one in a directory with an older copy: the new place exists, nothing moves.
    await legacyWebData(join(root, 'elsewhere'));
    await prepareDataDirs(dirs, { cwd, note: (line) => notes.push(line), warn: () => expect.unreachable() });
    await prepareDataDirs(dirs, {
      cwd: join(root, 'elsewhere'),
      note: (line) => notes.push(line),
      warn: () => expect.unreachable(),
    });
    expect(notes).toHaveLength(1);
    expect(existsSync(join(root, 'elsewhere', '.provisioner-data', 'app', 'settings.json'))).toBe(true);
  });

  it('removes ./.provisioner-data when web mode was all it held', async () => {
    const root = join(scratch, 'only-web');
    await legacyWebData(join(root, 'project'));
    await prepareDataDirs(platformPlaces(root), {
      cwd: join(root, 'project'),
      note: () => undefined,
      warn: () => expect.unreachable(),
    });
    expect(existsSync(join(root, 'project', '.provisioner-data'))).toBe(false);
  });

  it('moves nothing into a directory that --data-dir or $PROVISIONER_HOME chose', async () => {
    const root = join(scratch, 'chosen');
    await legacyWebData(join(root, 'project'));
    const dirs = resolveDataDirs({}, join(root, 'home'));
    await prepareDataDirs(dirs, {
      cwd: join(root, 'project'),
      note: () => expect.unreachable(),
      warn: () => expect.unreachable(),
    });
    expect(existsSync(dirs.web)).toBe(false);
    expect(existsSync(join(root, 'project', '.provisioner-data', 'app', 'settings.json'))).toBe(true);
  });

  // /dev/shm is a tmpfs: a rename from there into the temp directory fails with EXDEV.
  it.runIf(existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(tmpdir()).dev)(
    'copies and removes when the data directory is on another device',
    async () => {
      const project = await mkdtemp('/dev/shm/provisioner-project-');
      try {
        await legacyWebData(project);
        const dirs = platformPlaces(join(scratch, 'other-device'));
        const notes: string[] = [];
        await prepareDataDirs(dirs, {
          cwd: project,
          note: (line) => notes.push(line),
          warn: () => expect.unreachable(),
        });
        expect(notes).toHaveLength(1);
        expect(await readFile(join(dirs.web, 'workspace', 'service', 'PG_VERSION'), 'utf8')).toBe('17\n');
        expect(existsSync(join(project, '.provisioner-data'))).toBe(false);
        expect(existsSync(`${dirs.web}.moving`)).toBe(false);
        expect(await modesUnder(dirs.web)).toEqual({ dirs: [0o700], files: [0o600] });
      } finally {
        await rm(project, { recursive: true, force: true });
      }
    },
  );
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** The platform's places, under a scratch directory. */
function platformPlaces(root: string): DataDirs {
  return resolveDataDirs({}, undefined, () => ({
    config: join(root, 'config', 'provisioner'),
    data: join(root, 'data', 'provisioner'),
  }));
}

/** What web mode left in the directory it was started in, with the modes of a default umask. */
async function legacyWebData(cwd: string): Promise<void> {
  const app = join(cwd, '.provisioner-data', 'app');
  await mkdir(join(app, 'workspace', 'service'), { recursive: true, mode: 0o755 });
  await writeFile(join(app, 'settings.json'), '{"resume":null}\n', { mode: 0o644 });
  await writeFile(join(app, 'workspace', 'service', 'PG_VERSION'), '17\n', { mode: 0o644 });
}

function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}
