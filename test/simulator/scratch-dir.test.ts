import { execFileSync } from 'node:child_process';
import { chmod, lstat, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSimulatorDir, simulatorDir } from '../../simulator/scratch-dir';
import { useScratchDirPerTest } from '../fixtures/scratch';
import { runSimulatorCli } from './helpers/cli-process';
import { serviceKeys } from './helpers/fixtures';

const scratch = useScratchDirPerTest('sim-dir');
const uid = process.getuid!();
const modeOf = async (path: string) => (await lstat(path)).mode & 0o777;

/** Runs `command` as the local user `nobody`, the other user on the machine. */
function asNobody(command: string[]): void {
  execFileSync('runuser', ['-u', 'nobody', '--', ...command], { stdio: 'pipe' });
}

/** A directory every user may create entries in (as /tmp is), for `nobody` to act in. */
async function sharedParent(): Promise<string> {
  await chmod(scratch.dir, 0o711);
  const parent = join(scratch.dir, 'shared');
  await mkdir(parent);
  await chmod(parent, 0o1777);
  return parent;
}

describe.skipIf(uid !== 0)('the simulator directory (as root, with nobody as the other local user)', () => {
  it('is per user: $XDG_RUNTIME_DIR/provisioner-simulator, else <tmp>/provisioner-simulator-<uid>', () => {
    expect(defaultSimulatorDir({ XDG_RUNTIME_DIR: '/run/user/1000' })).toBe('/run/user/1000/provisioner-simulator');
    expect(defaultSimulatorDir({})).toBe(join(tmpdir(), `provisioner-simulator-${uid}`));
    expect(defaultSimulatorDir({ PROVISIONER_SIMULATOR_DIR: '/x/sim', XDG_RUNTIME_DIR: '/run/user/1000' })).toBe(
      '/x/sim',
    );
  });

  it('is created with mode 0700, and one of ours left wider is narrowed to 0700', async () => {
    const dir = simulatorDir({ XDG_RUNTIME_DIR: scratch.dir });
    expect(dir).toBe(join(scratch.dir, 'provisioner-simulator'));
    expect(await modeOf(dir)).toBe(0o700);
    await chmod(dir, 0o777);
    simulatorDir({ XDG_RUNTIME_DIR: scratch.dir });
    expect(await modeOf(dir)).toBe(0o700);
  });

  it('is refused when nobody created it first, and the simulator puts nothing in it', async () => {
    const parent = await sharedParent();
    const planted = join(parent, 'provisioner-simulator');
    asNobody(['mkdir', '-m', '0777', planted]);
    asNobody(['mkdir', '-m', '0777', join(planted, 'pty')]);
    expect(() => simulatorDir({ XDG_RUNTIME_DIR: parent })).toThrow(
      /belongs to uid 65534, not to you \(uid 0\).*PROVISIONER_SIMULATOR_DIR/,
    );

    const keyFile = join(scratch.dir, 'service.pem');
    await writeFile(keyFile, serviceKeys.publicKeyPem);
    const run = runSimulatorCli(
      [
        '--type',
        'EPC',
        '--serial',
        'EPC000901',
        '--link',
        'pty',
        '--public-key',
        keyFile,
        '--state-dir',
        join(scratch.dir, 'state'),
      ],
      1,
      {
        XDG_RUNTIME_DIR: parent,
        PROVISIONER_SIMULATOR_DIR: '',
      },
    );
    run.lines.catch(() => undefined);
    expect(await run.exit).toBe(1);
    expect(run.stderr()).toMatch(/simulator: The simulator's directory .*provisioner-simulator belongs to uid 65534/);
    expect(await readdir(join(planted, 'pty'))).toEqual([]);
    expect((await lstat(planted)).mode & 0o777).toBe(0o777);
  });

  it('is refused when it is a symbolic link, even to a directory of ours', async () => {
    const target = join(scratch.dir, 'ours');
    await mkdir(target, { mode: 0o700 });
    await symlink(target, join(scratch.dir, 'provisioner-simulator'));
    expect(() => simulatorDir({ XDG_RUNTIME_DIR: scratch.dir })).toThrow(/is a symbolic link/);
  });
});
