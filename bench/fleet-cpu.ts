import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

/**
 * CPU seconds of other processes, from /proc (Linux): what process.cpuUsage() cannot see. The fleet
 * bench reads the simulator's process this way, and the socat processes behind its ptys.
 */

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ; 100 on every usual kernel). */
const TICKS_PER_SECOND = (() => {
  const answer = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const ticks = Number(answer.stdout?.trim());
  return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
})();

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime of the process itself (not of its waited-for children), seconds. */
  cpuSeconds: number;
}

function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone between the listing and the read
  }
  // The command name (field 2) is in parentheses and may hold spaces: fields count from its ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After the name: state(3) ppid(4) … utime(14) stime(15), so index = field number - 3.
  return {
    pid,
    ppid: Number(fields[1]),
    cpuSeconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND,
  };
}

/** CPU seconds of a process and, separately, of its live child processes (one level down). */
export function processTreeCpu(pid: number): { self: number; children: number; childCount: number } {
  const self = readStat(pid)?.cpuSeconds ?? 0;
  let children = 0;
  let childCount = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat?.ppid !== pid) continue;
    children += stat.cpuSeconds;
    childCount += 1;
  }
  return { self, children, childCount };
}
