/**
 * Service cluster benchmark (`npm run bench -- cluster [--json] [--instances N] [--seconds S]`):
 * N instances on PostgreSQL behind HAProxy (`npm run stack`'s own throwaway cluster), all on
 * 127.0.0.1, driven through the load balancer with autocannon.
 *
 * 1. Ceiling: GET /v1/version through the same load balancer: a constant answer in the envelope,
 *    served, logged and measured like every operation, without the database.
 * 2. Mix: configuration list, get and status, device list and configuration-file generation (a
 *    write: a syncId and a sequence), while the app's outbox sends confirmations beside it.
 *    The ceiling, the mix and the mix's reads alone are measured in turns, in slices of two
 *    seconds, so that each meets the same background load of the machine (it moves from one
 *    minute to the next on a shared machine); each figure sums its slices.
 * 3. Failure: the same again, and meanwhile one instance is killed with SIGKILL and PostgreSQL is
 *    restarted; then the outbox is drained and the database counted.
 *
 * Prints one JSON object with --json (progress goes to stderr), else a summary. Every phase has a
 * fixed length and every wait a fixed number of tries: the run stops by itself.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type AutocannonResult } from 'autocannon';
import pg from 'pg';
import { Outbox } from '../main/engine/outbox/outbox';
import { clientConfirmationSender } from '../main/engine/outbox/outbox-sender';
import { createServiceClient } from '../main/cloud';
import { down, pgCtlCommand, up, waitUntilOk, type StackState } from '../scripts/stack';
import { CONFIRMING_DEVICES, seedClusterOrganization } from './cluster-seed';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    instances: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '16' },
  },
});
const INSTANCES = Number(values.instances);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
/** Confirmations the technicians' apps send, beside the mix: one every 50 ms. */
const CONFIRMATION_INTERVAL_MS = 50;

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface WriteCounter {
  failed: number;
}

/**
 * What technicians' apps ask for, in proportion: lists, configurations and their status, the
 * fleet, and one configuration file in sixteen requests (each download issues a sequence).
 */
function mix(configurationId: string, writes: WriteCounter, withFiles = true) {
  const P = '/v1/organizations/demo';
  const read = (path: string) => ({ method: 'GET', path: `${P}${path}` });
  const file = (serial: string) => ({
    ...read(`/devices/${serial}/configuration-file`),
    onResponse: (status: number) => {
      if (status !== 200) writes.failed++;
    },
  });
  const list = read('/configurations?Limit=20&SortOptions=ConfigNameASC');
  const page2 = read('/configurations?Limit=20&Page=2&SortOptions=ConfigNameASC');
  const get = read(`/configurations/${configurationId}`);
  const status = read(`/configurations/validate/${configurationId}`);
  const devices = read('/devices?limit=20');
  const reads = [list, get, status, devices, get, page2, status, list, get, devices, status, get, list, devices, get];
  return withFiles ? [...reads, file('SRCP000101'), ...reads, file('EPC000101')] : reads;
}

function drive(
  stack: StackState,
  requests: ReturnType<typeof mix> | { path: string }[],
  seconds: number,
): Promise<AutocannonResult> {
  return autocannon({
    url: stack.url,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
    headers: { authorization: `Bearer ${stack.adminKey}` },
    requests,
  });
}

const rps = (result: AutocannonResult) => result['2xx'] / result.duration;

/** One measure taken in several slices: requests and seconds summed, the worst slice's p99. */
interface Slices {
  ok: number;
  seconds: number;
  p99: number;
  non2xx: number;
}

const noSlices = (): Slices => ({ ok: 0, seconds: 0, p99: 0, non2xx: 0 });

function addSlice(into: Slices, result: AutocannonResult): void {
  into.ok += result['2xx'];
  into.seconds += result.duration;
  into.p99 = Math.max(into.p99, result.latency.p99);
  into.non2xx += result.non2xx;
}

const slicesRps = (slices: Slices) => slices.ok / slices.seconds;

/** Seconds of each slice of the steady phase. */
const SLICE_SECONDS = 2;

/** The app's outbox, sending confirmations as they are made, through the load balancer. */
function confirmationClient(stack: StackState, dir: string, writes: WriteCounter) {
  const client = createServiceClient({ baseUrl: stack.url, orgId: 'demo', apiKey: stack.adminKey! });
  const outbox = new Outbox({
    dir,
    sender: clientConfirmationSender(() => client),
    backoff: { baseMs: 50, capMs: 500, jitter: 0.2 },
    onEvent: (event) => {
      if (event.type === 'retry-scheduled') writes.failed++;
    },
  });
  let made = 0;
  let making = true;
  /** While the ceiling is measured no confirmation is made or sent: they belong to the mix. */
  let paused = false;
  const firstApply = Date.now() - 3_600_000;
  const maker = (async () => {
    while (making) {
      if (paused) {
        await sleep(10);
        continue;
      }
      await outbox.enqueue({
        kind: 'firmware',
        serviceUrl: stack.url,
        orgId: 'demo',
        serialNumber: CONFIRMING_DEVICES[made % CONFIRMING_DEVICES.length]!,
        payload: {
          firmwareFileSuccessfullyDeployed: true,
          firmwareVersion: '1.1.0',
          applyTimeStamp: new Date(firstApply + made * 1000).toISOString(),
        },
      });
      made++;
      await sleep(CONFIRMATION_INTERVAL_MS);
    }
  })();
  let sending = true;
  const sender = (async () => {
    while (sending) {
      if (!paused) await outbox.syncNow({ force: true }).catch(() => undefined);
      await sleep(20);
    }
  })();
  return {
    pause(): void {
      paused = true;
    },
    resume(): void {
      paused = false;
    },
    /** Stops making confirmations, sends what is left (a bounded number of passes) and says how many were made. */
    async finish(): Promise<{ sent: number; pending: number }> {
      paused = false;
      making = false;
      await maker;
      for (let pass = 0; pass < 600 && (await outbox.pending()).count > 0; pass++) await sleep(50);
      sending = false;
      await sender;
      const pending = (await outbox.pending()).count;
      await outbox.stop();
      return { sent: made, pending };
    },
  };
}

/** pg_ctl restart in a child process: the load and the outbox in this one keep going meanwhile. */
function restartPostgres(stack: StackState): Promise<void> {
  const [command, args] = pgCtlCommand(stack.postgres!, 'restart');
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`pg_ctl restart exited with ${code}`))));
  });
}

async function countConfirmations(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM confirmations WHERE kind = 'firmware'",
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** Whether the surviving instances and the load balancer are ready again, with nobody's help. */
async function recovered(stack: StackState, survivors: StackState['instances']): Promise<boolean> {
  try {
    await Promise.all([
      ...survivors.map((instance) => waitUntilOk(`${instance.url}/readyz`, 300)),
      waitUntilOk(`${stack.url}/readyz`, 300),
    ]);
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'provisioner-bench-cluster-'));
  // The throwaway cluster runs as the postgres user when we are root: it must reach its folder.
  chmodSync(workDir, 0o755);
  log(`starting ${INSTANCES} instances on PostgreSQL behind HAProxy`);
  let stack: StackState;
  try {
    // up() stops what it started when it fails.
    stack = await up({ instances: INSTANCES, runDir: join(workDir, 'stack'), port: 0, seedDemo: true, log });
  } catch (error) {
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  }
  try {
    const configurationId = await seedClusterOrganization(stack);
    const steadyWrites: WriteCounter = { failed: 0 };
    const failureWrites: WriteCounter = { failed: 0 };

    await drive(stack, [{ path: '/v1/version' }], 1);
    await drive(stack, mix(configurationId, { failed: 0 }), 1);
    const confirmations = confirmationClient(stack, join(workDir, 'outbox'), steadyWrites);
    const rounds = Math.max(1, Math.round(SECONDS / SLICE_SECONDS));
    log(
      `in turns, ${rounds} × ${SLICE_SECONDS} s each: the ceiling (GET /v1/version through the load balancer), ` +
        'the mix with confirmations beside it, and the reads of the mix alone (confirmations still beside)',
    );
    const ceiling = noSlices();
    const steady = noSlices();
    const readsOnly = noSlices();
    for (let round = 0; round < rounds; round++) {
      confirmations.pause();
      addSlice(ceiling, await drive(stack, [{ path: '/v1/version' }], SLICE_SECONDS));
      confirmations.resume();
      addSlice(steady, await drive(stack, mix(configurationId, steadyWrites), SLICE_SECONDS));
      addSlice(readsOnly, await drive(stack, mix(configurationId, steadyWrites, false), SLICE_SECONDS));
    }

    const failureSeconds = 2 * SECONDS;
    log(`failure: mix for ${failureSeconds} s; one instance killed, then PostgreSQL restarted`);
    const failurePhase = drive(stack, mix(configurationId, failureWrites), failureSeconds);
    await sleep((failureSeconds * 1000) / 4);
    const [victim, ...survivors] = stack.instances;
    process.kill(victim!.pid, 'SIGKILL');
    log(`killed ${victim!.name} (pid ${victim!.pid})`);
    await sleep((failureSeconds * 1000) / 4);
    log('restarting PostgreSQL');
    await restartPostgres(stack);
    const dbRestartRecovered = await recovered(stack, survivors);
    log(`instances ready again: ${dbRestartRecovered}`);
    const failure = await failurePhase;

    const { sent, pending } = await confirmations.finish();
    const stored = await countConfirmations(stack.databaseUrl);
    const result = {
      instances: INSTANCES,
      rps: Math.round(slicesRps(steady)),
      p99_ms: steady.p99,
      ceiling_ratio: Number((slicesRps(steady) / slicesRps(ceiling)).toFixed(2)),
      reads_ceiling_ratio: Number((slicesRps(readsOnly) / slicesRps(ceiling)).toFixed(2)),
      killed: 1,
      failed_writes: steadyWrites.failed + failureWrites.failed,
      confirmations_sent: sent,
      confirmations_stored: stored,
      db_restart_recovered: dbRestartRecovered,
    };
    log(
      `ceiling ${Math.round(slicesRps(ceiling))} requests/s (p99 ${ceiling.p99} ms); mix ${result.rps} requests/s, non-2xx ${steady.non2xx}; ` +
        `reads alone ${Math.round(slicesRps(readsOnly))} requests/s (p99 ${readsOnly.p99} ms); ` +
        `failure phase ${Math.round(rps(failure))} requests/s, non-2xx ${failure.non2xx}, connection errors ${failure.errors}; ` +
        `confirmations left in the outbox ${pending}; ${cpus().length} cores, Node ${process.version}`,
    );
    if (values.json) {
      process.stdout.write(`${JSON.stringify(result)}\n`);
    } else {
      console.log(
        `Service cluster: ${INSTANCES} instances on PostgreSQL behind HAProxy, ${cpus().length} cores, ${CONNECTIONS} connections`,
      );
      for (const [name, value] of Object.entries(result)) console.log(`${name.padEnd(22)} ${String(value)}`);
    }
    if (stored !== sent || !dbRestartRecovered) process.exitCode = 1;
  } finally {
    await down(stack.runDir);
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
