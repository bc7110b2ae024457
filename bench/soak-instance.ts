/**
 * Does the service instance keep anything that grows with a night shift? (issue 30; the soak's
 * instance grew +17.7 % by its window highs.) One instance on PostgreSQL (`up()` of
 * scripts/stack.ts, as bench/soak.ts starts them), seeded as the soak seeds it, and driven with
 * the requests a Station makes for each device, without the Station, the simulator or faults:
 *
 *   npx tsx bench/soak-instance.ts [--devices 300] [--rounds 4] [--lanes 16] [--heap-snapshots DIR]
 *                                  [--instance-node-options '--max-semi-space-size=16']
 *
 * Each round is a shift over every device: the shift's files fetched eight at once (the shift
 * checksum), then per device, `lanes` at once, the firmware version of its type, its record (a
 * device list by serial), its configuration file, both confirmations (with an idempotency key and
 * a ledger hash, as the outbox sends them; one in twenty sent twice, as a retried send is), the
 * issued sync id and the record again (the sync check). Every round stores new confirmations,
 * as every shift does. Round 1 is the warm-up.
 *
 * The instance's memory is read every 2 s: VmRSS from /proc, and from its /metrics (process
 * metrics, as `serve` has them) the V8 heap's spaces and the external memory. Printed per round:
 * the highs and lows of each, the time its collector took in the round (its /metrics' GC histogram,
 * by kind), and how long each device's requests took (p50, p99). --instance-node-options is added
 * to the instance's NODE_OPTIONS only (not this process's): a heap setting measured against the
 * instance as it starts by default. `serve` starts with a bounded heap (scripts/service-heap.mjs)
 * unless NODE_OPTIONS names the flags, so `--instance-node-options="--max-semi-space-size=0
 * --max-old-space-size=0"` gives it V8's own sizes (0: V8 chooses). With --heap-snapshots the instance writes a heap snapshot after the
 * warm-up round and after the last (`warm.heapsnapshot`, `end.heapsnapshot`), which
 * `npx tsx bench/soak-heap.ts` compares: a snapshot holds only what is alive after a full
 * collection, so what grew between them is what the instance keeps.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { parseArgs } from 'node:util';
import { createServiceClient, ServiceError, type ServiceClient } from '../main/cloud';
import { down, up } from '../scripts/stack';
import { planDevices, type SoakDevice } from './soak-plan';
import { heapSnapshotEnv, instanceHeapMiB, rssMiB, takeHeapSnapshot, type InstanceHeap } from './soak-procs';
import { seedOrganization } from './soak-seed';
import { wholeFlag } from './bench-figures';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '4' },
    lanes: { type: 'string', default: '16' },
    'heap-snapshots': { type: 'string' },
    'instance-node-options': { type: 'string' },
  },
});
const DEVICES = wholeFlag('devices', values.devices, 2);
const ROUNDS = wholeFlag('rounds', values.rounds, 2);
const LANES = wholeFlag('lanes', values.lanes, 1);
const HEAP_SNAPSHOTS = values['heap-snapshots'] === undefined ? undefined : resolvePath(values['heap-snapshots']);
if (HEAP_SNAPSHOTS !== undefined) mkdirSync(HEAP_SNAPSHOTS, { recursive: true });
const INSTANCE_NODE_OPTIONS = values['instance-node-options']?.trim() ?? '';
/** The Station fetches the shift's files this many at once (main/features/station/shift-parameters.ts). */
const FILES_AT_ONCE = 8;
const SAMPLE_MS = 2000;
/** One confirmation in this many is sent twice, as a retried send of the outbox is. */
const REPEAT_EVERY = 20;
const WORKSTATION = 'soak-instance-bench';
/** Sends of one request at most, when it meets conflicts. */
const ATTEMPTS = 10;

const log = (line: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

/** One reading of the instance's memory, in MiB (null: not read). */
interface MemorySample extends InstanceHeap {
  at: number;
  rss: number | null;
}

/** Lowest and highest of each figure over `samples`. */
function spread(samples: readonly MemorySample[]) {
  const range = (pick: (s: MemorySample) => number | null) => {
    const all = samples.map(pick).filter((v): v is number => v !== null);
    return all.length === 0 ? null : { low: Math.min(...all), high: Math.max(...all) };
  };
  return {
    readings: samples.length,
    rss: range((s) => s.rss),
    heap_new: range((s) => s.heapNew),
    heap_old: range((s) => s.heapOld),
    heap_used: range((s) => s.heapUsed),
    external: range((s) => s.external),
  };
}

/** Seconds the instance's collector has spent so far, by kind (major, minor, incremental, weakcb), from its /metrics. */
async function gcSeconds(url: string): Promise<Record<string, { seconds: number; count: number }>> {
  const text = await fetch(`${url}/metrics`).then((answer) => (answer.ok ? answer.text() : ''));
  const byKind: Record<string, { seconds: number; count: number }> = {};
  for (const match of text.matchAll(/^nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} (\S+)/gm)) {
    const kind = (byKind[match[2]!] ??= { seconds: 0, count: 0 });
    if (match[1] === 'sum') kind.seconds = Number(match[3]);
    else kind.count = Number(match[3]);
  }
  return byKind;
}

/** What the collector did between two readings of gcSeconds: seconds (to the millisecond) and collections, by kind. */
function gcBetween(
  before: Awaited<ReturnType<typeof gcSeconds>>,
  after: Awaited<ReturnType<typeof gcSeconds>>,
): Record<string, { seconds: number; count: number }> {
  const spent: Record<string, { seconds: number; count: number }> = {};
  for (const [kind, now] of Object.entries(after)) {
    const then = before[kind] ?? { seconds: 0, count: 0 };
    spent[kind] = { seconds: Math.round((now.seconds - then.seconds) * 1000) / 1000, count: now.count - then.count };
  }
  return spent;
}

/** The `share` quantile of `values` (nearest rank), in whole milliseconds. */
function quantileMs(values: readonly number[], share: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!);
}

/** `work` over `items`, `atOnce` at a time. */
async function inLanes<T>(items: readonly T[], atOnce: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, lane));
}

/**
 * A request sent again after a conflict (409: lanes writing at once; a file's download writes its
 * sync id), as the Station's outbox and its jobs do.
 */
async function again<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof ServiceError && error.httpStatus === 409) || attempt >= ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

/** What a Station asks of the service for one device it provisions (see the file's comment). */
async function provision(client: ServiceClient, device: SoakDevice, sent: number): Promise<void> {
  const { version } = await client.devices.firmwareVersionByType(device.deviceType);
  await client.devices.list({ serial: device.serialNumber, limit: 1 });
  const file = await again(() => client.devices.fetchConfigurationFile(device.serialNumber));
  if (file.syncId === undefined) throw new Error(`The file of ${device.serialNumber} came without a sync id.`);
  const common = {
    applyTimeStamp: new Date().toISOString(),
    workstation: WORKSTATION,
    reason: 'job-result' as const,
  };
  const firmware = {
    ...common,
    firmwareFileSuccessfullyDeployed: true,
    firmwareVersion: version,
    ledgerHash: randomBytes(32).toString('hex'),
    ledgerSeq: 2 * sent + 1,
  };
  const configuration = {
    ...common,
    configurationFileSuccessfullyDeployed: true,
    syncId: file.syncId,
    ledgerHash: randomBytes(32).toString('hex'),
    ledgerSeq: 2 * sent + 2,
  };
  const times = sent % REPEAT_EVERY === 0 ? 2 : 1;
  const firmwareKey = randomUUID();
  const configurationKey = randomUUID();
  for (let i = 0; i < times; i++)
    await again(() => client.devices.confirmApplyFirmware(device.serialNumber, firmware, undefined, firmwareKey));
  for (let i = 0; i < times; i++)
    await again(() =>
      client.devices.confirmApplyConfiguration(device.serialNumber, configuration, undefined, configurationKey),
    );
  await client.devices.issuedSyncId(device.serialNumber, file.syncId);
  await client.devices.list({ serial: device.serialNumber, limit: 1 });
}

async function main(): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'provisioner-bench-soak-instance-'));
  // The throwaway cluster runs as the postgres user when we are root: it must reach its folder.
  chmodSync(workDir, 0o755);
  const plan = planDevices(DEVICES, 1);
  log(`one instance, ${DEVICES} devices, ${ROUNDS} rounds, ${LANES} lanes; ${cpus().length} cores`);
  // up() gives the instance this process's environment: with it, the instance writes a snapshot on SIGUSR2.
  const savedOptions = process.env.NODE_OPTIONS;
  if (HEAP_SNAPSHOTS !== undefined)
    process.env.NODE_OPTIONS = heapSnapshotEnv(process.env, HEAP_SNAPSHOTS).NODE_OPTIONS;
  if (INSTANCE_NODE_OPTIONS !== '')
    process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, INSTANCE_NODE_OPTIONS].filter(Boolean).join(' ');
  if (process.env.NODE_OPTIONS) log(`the instance's NODE_OPTIONS: ${process.env.NODE_OPTIONS}`);
  const stack = await up({ instances: 1, runDir: join(workDir, 'stack'), port: 0, seedDemo: true, log }).finally(() => {
    if (savedOptions === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = savedOptions;
  });
  const instance = stack.instances[0]!;
  const samples: MemorySample[] = [];
  let sampler: NodeJS.Timeout | undefined;
  try {
    log('seeding: manufacturing records, registrations, the configuration');
    await seedOrganization(stack, plan);
    const client = createServiceClient({ baseUrl: instance.url, orgId: 'demo', apiKey: stack.adminKey! });
    sampler = setInterval(() => {
      const at = performance.now();
      const rss = rssMiB(instance.pid);
      void instanceHeapMiB(instance.url).then((heap) => samples.push({ at, rss, ...heap }));
    }, SAMPLE_MS);
    const rounds: Array<
      {
        round: number;
        seconds: number;
        device_p50_ms: number | null;
        device_p99_ms: number | null;
        gc: Record<string, { seconds: number; count: number }>;
      } & ReturnType<typeof spread>
    > = [];
    let sent = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const gcBefore = await gcSeconds(instance.url);
      const from = performance.now();
      await inLanes(plan, FILES_AT_ONCE, async (device) => {
        await again(() => client.devices.fetchConfigurationFile(device.serialNumber));
      });
      const deviceMs: number[] = [];
      await inLanes(plan, LANES, async (device) => {
        const start = performance.now();
        await provision(client, device, sent++);
        deviceMs.push(performance.now() - start);
      });
      const to = performance.now();
      const gc = gcBetween(gcBefore, await gcSeconds(instance.url));
      const row = {
        round,
        seconds: Math.round((to - from) / 1000),
        device_p50_ms: quantileMs(deviceMs, 0.5),
        device_p99_ms: quantileMs(deviceMs, 0.99),
        gc,
        ...spread(samples.filter((s) => s.at >= from && s.at <= to)),
      };
      rounds.push(row);
      const gcLine = Object.entries(gc)
        .map(([kind, { seconds, count }]) => `${kind} ${count}× ${seconds} s`)
        .join(', ');
      log(
        `round ${round}: ${row.seconds} s, a device's requests p50 ${row.device_p50_ms} ms, p99 ${row.device_p99_ms} ms; RSS ${row.rss?.low}..${row.rss?.high} MiB, old space ${row.heap_old?.low}..${row.heap_old?.high}, new space up to ${row.heap_new?.high}, external ${row.external?.low}..${row.external?.high}; GC ${gcLine}`,
      );
      if (HEAP_SNAPSHOTS !== undefined && (round === 1 || round === ROUNDS)) {
        const label = round === 1 ? 'warm' : 'end';
        const path = await takeHeapSnapshot(instance.pid, HEAP_SNAPSHOTS, label);
        log(path === null ? `no heap snapshot (${label}) came from the instance` : `heap snapshot (${label}): ${path}`);
      }
    }
    console.log(
      JSON.stringify({
        devices: DEVICES,
        lanes: LANES,
        instance_node_options: INSTANCE_NODE_OPTIONS,
        confirmations_sent: sent * 2,
        load_average: loadavg()[0],
        rounds,
      }),
    );
  } finally {
    if (sampler) clearInterval(sampler);
    await down(stack.runDir);
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
