import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useOperatorDataDir } from './cli-run';
import { startServe } from './helpers/serve-process';

/** The processes under `pid` (Linux /proc), found by walking parent ids. */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid …; comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // Gone meanwhile.
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [child, ppid] of parents) {
      if (ppid === parent && !found.includes(child)) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(process.platform !== 'linux')('under a supervisor', () => {
  const operator = useOperatorDataDir('supervisor');

  it('SIGTERM to the documented start command (bin/provisioner-service serve) stops the service and every process it started', async () => {
    const { started, exited, child } = startServe(['serve', '--port', '0', '--data', operator.data]);
    const { url } = await started;
    const under = descendantsOf(child.pid!);
    expect(under.length).toBeGreaterThan(0);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // The bin waits for its child before exiting; anything of the tree still alive was left behind.
    expect(under.filter(alive)).toEqual([]);
    const refused = await fetch(`${url}/v1/version`).then(
      () => 'answered',
      () => 'refused',
    );
    expect(refused).toBe('refused');
  });
});
