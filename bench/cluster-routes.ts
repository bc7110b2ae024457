/**
 * Where the cluster's reads lose to the ceiling, route by route (`npx tsx bench/cluster-routes.ts
 * [--instances N] [--seconds S] [--connections C]`): the stack of bench/cluster.ts, seeded the
 * same way, and each read of the mix driven alone through the load balancer in turns with the
 * ceiling (GET /v1/version), in slices of one second, so that each meets the same background load.
 * Prints, per route, its requests/s ÷ the ceiling's, the size of its answer, and per request the
 * statements, read-cache misses and catch-up queries (and catch-ups that shared one) the instances
 * counted. No confirmations
 * run beside it: this is the cost of a read on a warm cache. A profiling aid, not a target.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { down, up } from '../scripts/stack';
import { seedClusterOrganization } from './cluster-seed';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '6' },
    connections: { type: 'string', default: '16' },
  },
});
const SLICE_SECONDS = 1;

const log = (line: string) => process.stderr.write(`${line}\n`);

const workDir = mkdtempSync(join(tmpdir(), 'provisioner-bench-routes-'));
chmodSync(workDir, 0o755);
const stack = await up({
  instances: Number(values.instances),
  runDir: join(workDir, 'stack'),
  port: 0,
  seedDemo: true,
  log,
});
try {
  const configurationId = await seedClusterOrganization(stack);
  const P = '/v1/organizations/demo';
  const routes: Record<string, string> = {
    ceiling: '/v1/version',
    'configuration list': `${P}/configurations?Limit=20&SortOptions=ConfigNameASC`,
    'configuration get': `${P}/configurations/${configurationId}`,
    'configuration status': `${P}/configurations/validate/${configurationId}`,
    'device list': `${P}/devices?limit=20`,
  };
  const headers = { authorization: `Bearer ${stack.adminKey}` };
  const sizes = new Map<string, number>();
  for (const [name, path] of Object.entries(routes))
    sizes.set(name, (await (await fetch(`${stack.url}${path}`, { headers })).arrayBuffer()).byteLength);
  const totals = new Map<string, { ok: number; seconds: number }>();
  const drive = async (name: string) => {
    const result = await autocannon({
      url: `${stack.url}${routes[name]}`,
      connections: Number(values.connections),
      duration: SLICE_SECONDS,
      headers,
    });
    const total = totals.get(name) ?? { ok: 0, seconds: 0 };
    total.ok += result['2xx'];
    total.seconds += result.duration;
    totals.set(name, total);
  };
  for (const name of Object.keys(routes)) await drive(name);
  totals.clear();
  for (let round = 0; round < Number(values.seconds); round++) {
    for (const name of Object.keys(routes)) {
      if (name !== 'ceiling') await drive('ceiling');
      await drive(name);
    }
  }
  // What one request of each route asks of PostgreSQL, from the instances' counters: the
  // operation's statements, read-cache misses and catch-up queries on the listening connection.
  const instanceCounters = async () => {
    const sum = { catchUpQueries: 0, catchUpShared: 0, readMisses: 0, statements: 0 };
    for (const instance of stack.instances) {
      const text = await (await fetch(`${instance.url}/metrics`)).text();
      const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
      sum.catchUpQueries += value(/^provisioner_catch_up_total\{result="query"\} (\d+)/m);
      sum.catchUpShared += value(/^provisioner_catch_up_total\{result="shared"\} (\d+)/m);
      sum.readMisses += value(/^provisioner_cache_lookups_total\{cache="read",result="miss"\} (\d+)/m);
      // Only the route driven runs meanwhile: every route's statements are its.
      for (const match of text.matchAll(/^provisioner_db_statements_total\{[^}]*\} (\d+)/gm))
        sum.statements += Number(match[1]);
    }
    return sum;
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
  const perRequest = new Map<string, string>();
  for (const [name, path] of Object.entries(routes)) {
    await settle();
    const countersBefore = await instanceCounters();
    const result = await autocannon({
      url: `${stack.url}${path}`,
      connections: Number(values.connections),
      duration: 2,
      headers,
    });
    const requests = result['2xx'] + result.non2xx;
    await settle();
    const countersAfter = await instanceCounters();
    const queries = (countersAfter.catchUpQueries - countersBefore.catchUpQueries) / requests;
    const shared = (countersAfter.catchUpShared - countersBefore.catchUpShared) / requests;
    const misses = (countersAfter.readMisses - countersBefore.readMisses) / requests;
    const statements = (countersAfter.statements - countersBefore.statements) / requests;
    perRequest.set(
      name,
      `statements ${statements.toFixed(3)}, catch-up queries ${queries.toFixed(3)} (shared ${shared.toFixed(3)}), read-cache misses ${misses.toFixed(3)}`,
    );
  }

  const rate = (name: string) => totals.get(name)!.ok / totals.get(name)!.seconds;
  console.log(
    `${cpus().length} cores, load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
  for (const name of Object.keys(routes)) {
    console.log(
      `${name.padEnd(22)} ${String(Math.round(rate(name))).padStart(6)} requests/s  ratio ${(rate(name) / rate('ceiling')).toFixed(2)}  ${sizes.get(name)} bytes; per request: ${perRequest.get(name)}`,
    );
  }
} finally {
  await down(stack.runDir);
  rmSync(workDir, { recursive: true, force: true });
}
