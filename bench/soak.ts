/**
 * Endurance, a night shift (issue 30): `npm run bench -- soak [--json] [--devices N] [--lanes L]
 * [--seed S] [--minutes M]`. N simulated devices (default 300: SRCP senders and EPC receivers of
 * one ISM configuration) go through a Station of L lanes (default 16; the real
 * `provisioner station --json`, its own process) against the clustered service (two instances on
 * PostgreSQL behind HAProxy, started as the cluster bench starts them), all on 127.0.0.1.
 *
 * The person at the station plugs devices in as lanes free up (a few more than the lanes wait
 * their turn), takes each away once the Station says it is done, and plugs a failed one in again
 * (up to three times). The simulator's faults: 5 % of the devices lose their cable during the
 * upload, some lose power while applying, some have frames corrupted, some links stall
 * (soak-plan.ts). During the shift the same service instance is SIGKILLed twice (and started again
 * on its port each time), PostgreSQL is restarted once and the Station is SIGKILLed and started
 * again once, each when a given share of the devices is finished (soak-plan.ts CHAOS).
 *
 * Afterwards: the Station is stopped (Ctrl-C), its outbox synced; every device is plugged in again,
 * a batch at a time, for `provisioner device verify --all`; `provisioner ledger verify` checks the
 * local ledger and the organization's chain on the service; the Station's confirmations (its
 * ledger's firmware-install and configuration-apply entries, each of which a confirmation
 * carries) are compared with the service's rows. Memory (VmRSS) and descriptors (/proc/PID/fd, but
 * for ptys) of the Station and of the instance never killed are read after warm-up and at the end;
 * RSS is read once a second besides, and its growth compares the highs of the two minutes after
 * warm-up with those of the shift's last two (soak-count.ts rssWindows says why). The instance's
 * heap (old space and young generation, from its /metrics) is read every 5 s, in the same windows.
 *
 * Prints progress on stderr and, as the last line of stdout, one JSON object (soak-count.ts counts
 * it). Everything is bounded: the shift by --minutes (default 5 + N/10), every wait by its tries.
 *
 * `--heap-snapshots DIR`: the Station that runs to the end writes a heap snapshot into DIR after
 * warm-up and at the end (`warm.heapsnapshot`, `end.heapsnapshot`; each after its RSS reading),
 * which `npx tsx bench/soak-heap.ts DIR/warm.heapsnapshot DIR/end.heapsnapshot` compares. Writing
 * a snapshot takes the Station's own memory: a run with them measures what grows, not RSS.
 *
 * `--station-node-options="FLAGS"`: Node's options for the Station's process alone (appended to
 * NODE_OPTIONS), e.g. `--station-node-options=--max-semi-space-size=16` to compare a capped young
 * generation (with `=`: a value that starts with `--` is otherwise read as a flag of its own).
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { parseLedgerText } from '../domain/ledger';
import { startSimulatedDevice, type SimulatedDevice } from '../simulator';
import { down, up, type StackState } from '../scripts/stack';
import {
  growth,
  rssWindows,
  tallyConfirmations,
  tallyDevices,
  type DeviceOutcome,
  type RssSample,
  type StationConfirmation,
  type StoredConfirmation,
} from './soak-count';
import { CHAOS, planDevices, WARM_UP, type SoakDevice } from './soak-plan';
import { CONFIGURATION_NAME, seedOrganization } from './soak-seed';
import {
  fdTotal,
  heapSnapshotEnv,
  instanceHeapMiB,
  openFdKinds,
  openFds,
  restartInstance,
  restartPostgres,
  rssMiB,
  runCli,
  startCli,
  takeHeapSnapshot,
  withNodeOptions,
  type CliProcess,
} from './soak-procs';
import { wholeFlag } from './bench-figures';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    devices: { type: 'string', default: '300' },
    lanes: { type: 'string', default: '16' },
    seed: { type: 'string', default: '1' },
    minutes: { type: 'string' },
    'heap-snapshots': { type: 'string' },
    'station-node-options': { type: 'string' },
  },
});
const DEVICES = wholeFlag('devices', values.devices, 4);
const LANES = wholeFlag('lanes', values.lanes, 1);
const SEED = wholeFlag('seed', values.seed, 0);
const HEAP_SNAPSHOTS = values['heap-snapshots'] === undefined ? undefined : resolvePath(values['heap-snapshots']);
if (HEAP_SNAPSHOTS !== undefined) mkdirSync(HEAP_SNAPSHOTS, { recursive: true });
/** Node's options for the Station's process only (e.g. a cap on its young generation), after NODE_OPTIONS. */
const STATION_NODE_OPTIONS = values['station-node-options']?.trim() ?? '';
const MINUTES = values.minutes === undefined ? 5 + DEVICES / 10 : Number(values.minutes);
if (!(MINUTES > 0)) {
  console.error(`error: --minutes must be a positive number, got "${values.minutes}"`);
  process.exit(2);
}
/** Devices plugged in and waiting beside those in a lane: the next ones the person has at hand. */
const WAITING_AT_HAND = 4;
/** Tries of one device after its first: a failed device is plugged in again this many times at most. */
const RETRIES = 3;
/** A plugged device the Station says nothing of for this long is counted failed and plugged in again. */
const SILENT_MS = 180_000;
/** How long a failed device stays unplugged before its retry: beyond the live list's 3 s grace. */
const UNPLUGGED_MS = 4500;
/** RSS is read once a second; growth compares the window after warm-up with the last, each this long. */
const RSS_WINDOW_MS = 120_000;
/** The instance's heap is read from its /metrics this often (a scrape is a request it serves). */
const HEAP_READ_MS = 5000;
/** Devices plugged in at once for `device verify --all` at the end. */
const VERIFY_BATCH = 32;
const OPERATOR = 'Soak Bench';
/** Compressed: a fast line and quick restarts, as the end-to-end tests' devices. */
const DEVICE_SPEED = { baudRate: 921_600, rebootMs: 150, applyMs: 50 } as const;

const log = (line: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type DeviceStatus = 'pending' | 'plugged' | 'finished' | 'given-up';

interface DeviceRun {
  plan: SoakDevice;
  status: DeviceStatus;
  sim: SimulatedDevice | undefined;
  outcomes: DeviceOutcome[];
  replugs: number;
  reasons: string[];
  lastWordAt: number;
  /** Set while the device is being taken away or plugged in again. */
  handling: boolean;
}

interface Samples {
  stationWarm: { rss: number | null; fds: number | null; fdKinds: Record<string, number> | null; at: number } | null;
  serviceWarm: { rss: number | null; fds: number | null; at: number } | null;
}

async function rootKeyPem(url: string): Promise<string> {
  const response = await fetch(`${url}/v1/config-file-signing-key`);
  const body = (await response.json()) as { data?: { publicKeyPem?: string } };
  if (!response.ok || !body.data?.publicKeyPem) throw new Error(`GET /v1/config-file-signing-key: ${response.status}`);
  return body.data.publicKeyPem;
}

/** The shift's checksum, as the operator reads it under the table the Station prints before it starts. */
async function shiftChecksum(home: string, env: NodeJS.ProcessEnv): Promise<string> {
  // Before it prints them the Station fetches every device's configuration file: minutes for hundreds.
  const run = await runCli(home, ['station', '--configuration', CONFIGURATION_NAME, '--json'], env, 900_000);
  for (const line of run.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const event = JSON.parse(line) as { event?: string; checksumShort?: string };
    if (event.event === 'shift-parameters' && event.checksumShort) return event.checksumShort;
  }
  throw new Error(
    `The Station printed no shift parameters (exit ${run.code}): ${run.stderr.slice(-2000)} ${run.stdout.slice(-2000)}`,
  );
}

/** Every entry of the ledger files under the CLI's home: the Station's own record. */
function stationConfirmations(home: string, serials: ReadonlySet<string>): StationConfirmation[] {
  const files = readdirSync(home, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('ledger.jsonl'));
  const found: StationConfirmation[] = [];
  for (const file of files)
    for (const line of parseLedgerText(readFileSync(join(home, file), 'utf8'))) {
      if (!('entry' in line)) continue;
      const { entry } = line;
      if (
        (entry.action === 'firmware-install' || entry.action === 'configuration-apply') &&
        serials.has(entry.serialNumber)
      )
        found.push({ hash: entry.hash, serialNumber: entry.serialNumber, action: entry.action });
    }
  return found;
}

async function storedConfirmations(stack: StackState, serials: readonly string[]): Promise<StoredConfirmation[]> {
  // The connection string carries no password (stack.ts): it is in the run directory's 0600 file.
  const url = new URL(stack.databaseUrl);
  const client = new pg.Client({
    host: url.hostname,
    port: Number(url.port),
    user: decodeURIComponent(url.username),
    database: url.pathname.slice(1),
    password: readFileSync(stack.postgres!.passwordFile, 'utf8').trim(),
  });
  await client.connect();
  try {
    const { rows } = await client.query<{
      serial_number: string;
      kind: 'firmware' | 'configuration';
      ledger_hash: string | null;
      apply_time: string | null;
      reason: string | null;
      outcome: string;
    }>(
      `SELECT serial_number, kind, payload->>'ledgerHash' AS ledger_hash, payload->>'applyTimeStamp' AS apply_time,
              payload->>'reason' AS reason, outcome
         FROM confirmations WHERE org_id = 'demo' AND serial_number = ANY($1)`,
      [serials],
    );
    return rows.map((row) => ({
      serialNumber: row.serial_number,
      kind: row.kind,
      ledgerHash: row.ledger_hash,
      applyTimeStamp: row.apply_time,
      label: `${row.kind} ${row.reason ?? 'no reason'} ${row.outcome}`,
    }));
  } finally {
    await client.end();
  }
}

/** The Station's heap snapshot into --heap-snapshots, said on stderr. */
async function heapSnapshot(pid: number, label: string): Promise<void> {
  const path = await takeHeapSnapshot(pid, HEAP_SNAPSHOTS!, label);
  log(path === null ? `no heap snapshot (${label}) came from the Station` : `heap snapshot (${label}): ${path}`);
}

/** Ctrl-C or SIGTERM ends the shift early; the stack and the devices are still stopped. */
let aborted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    aborted = true;
  });

async function main(): Promise<void> {
  const started = performance.now();
  const workDir = mkdtempSync(join(tmpdir(), 'provisioner-bench-soak-'));
  // The throwaway cluster runs as the postgres user when we are root: it must reach its folder.
  chmodSync(workDir, 0o755);
  const plan = planDevices(DEVICES, SEED);
  const serials = plan.map((d) => d.serialNumber);
  log(
    `night shift: ${DEVICES} devices, ${LANES} lanes, seed ${SEED}, at most ${MINUTES} minutes; ${cpus().length} cores`,
  );
  for (const d of plan.filter((p) => p.faultNames.length > 0)) log(`  ${d.serialNumber}: ${d.faultNames.join(', ')}`);
  log('starting 2 instances on PostgreSQL behind HAProxy');
  const stack = await up({ instances: 2, runDir: join(workDir, 'stack'), port: 0, seedDemo: true, log }).catch(
    (error: unknown) => {
      rmSync(workDir, { recursive: true, force: true });
      throw error;
    },
  );
  const runs = new Map<string, DeviceRun>(
    plan.map((p) => [
      p.serialNumber,
      {
        plan: p,
        status: 'pending',
        sim: undefined,
        outcomes: [],
        replugs: 0,
        reasons: [],
        lastWordAt: 0,
        handling: false,
      },
    ]),
  );
  let station: CliProcess | undefined;
  try {
    log('seeding: manufacturing records, registrations, the configuration');
    const releaseKeysPem = await seedOrganization(stack, plan);
    const publicKeyPem = await rootKeyPem(stack.url);
    const home = join(workDir, 'home');
    const simDir = join(workDir, 'sim');
    const ptyDir = join(simDir, 'pty');
    mkdirSync(ptyDir, { recursive: true });
    const cliEnv = (ports: string): NodeJS.ProcessEnv => ({
      ...process.env,
      PROVISIONER_SIMULATOR_DIR: simDir,
      PROVISIONER_PORTS: join(ports, '*'),
      PROVISIONER_NO_BLE: '1',
      PROVISIONER_DISCOVERY: 'off',
      CI: '1',
      LC_ALL: undefined,
      LC_MESSAGES: undefined,
      LANG: 'C.UTF-8',
    });
    const env = cliEnv(ptyDir);
    const login = await runCli(
      home,
      ['login', '--url', stack.url, '--org', 'demo', '--api-key', stack.adminKey!],
      env,
      120_000,
    );
    if (login.code !== 0) throw new Error(`provisioner login failed (${login.code}): ${login.stderr}`);
    const asked = performance.now();
    const checksum = await shiftChecksum(home, env);
    const shiftParametersSeconds = Math.round((performance.now() - asked) / 1000);
    log(`shift checksum ${checksum}, shown after ${shiftParametersSeconds} s`);

    // --- The Station and what it says.
    let stationStarts = 0;
    /** Devices finished when the Station now running said it started: its warm-up counts from there. */
    let finishedAtStationStart = 0;
    let stationStarted: () => void = () => undefined;
    const startStation = (): CliProcess => {
      stationStarts += 1;
      const args = ['station', '--configuration', CONFIGURATION_NAME, '--lanes', String(LANES), '--json'];
      const withOptions = withNodeOptions(env, STATION_NODE_OPTIONS);
      const stationEnv = HEAP_SNAPSHOTS === undefined ? withOptions : heapSnapshotEnv(withOptions, HEAP_SNAPSHOTS);
      const started = startCli(
        home,
        [...args, '--confirm-checksum', checksum, '--operator', OPERATOR],
        stationEnv,
        (line) => heard(line),
      );
      void started.done.then((exit) =>
        log(
          `the Station (pid ${started.child.pid}) exited with ${exit.code ?? exit.signal}: ${exit.stderr.slice(-400)}`,
        ),
      );
      return started;
    };
    const finishedCount = () =>
      [...runs.values()].filter((r) => r.status === 'finished' || r.status === 'given-up').length;
    const heard = (line: string): void => {
      if (!line.startsWith('{')) return;
      let event: { event?: string; serialNumber?: string; reason?: string };
      try {
        event = JSON.parse(line) as typeof event;
      } catch {
        return;
      }
      if (event.event === 'station-started') {
        log(`station started (pid ${station?.child.pid})`);
        finishedAtStationStart = finishedCount();
        stationStarted();
      }
      const run = event.serialNumber === undefined ? undefined : runs.get(event.serialNumber);
      if (!run) return;
      run.lastWordAt = performance.now();
      if (event.event === 'done' || event.event === 'in-sync') {
        run.outcomes.push(event.event);
        if (run.status === 'plugged') void takeAway(run, 'finished');
      } else if (event.event === 'failed') {
        run.outcomes.push('failed');
        run.reasons.push(event.reason ?? 'no reason given');
        log(`${run.plan.serialNumber} failed: ${event.reason ?? ''}`);
        if (run.status === 'plugged') void retry(run);
      }
    };

    // --- The person at the station.
    let loggedFinished = 0;
    const takeAway = async (run: DeviceRun, status: 'finished' | 'given-up'): Promise<void> => {
      run.status = status;
      const sim = run.sim;
      run.sim = undefined;
      await sim?.stop().catch(() => undefined);
      const finished = finishedCount();
      const step = Math.max(1, Math.round(DEVICES / 20));
      if (Math.floor(finished / step) > Math.floor(loggedFinished / step)) log(`${finished}/${DEVICES} finished`);
      loggedFinished = finished;
    };
    const retry = async (run: DeviceRun): Promise<void> => {
      if (run.handling) return;
      if (run.replugs >= RETRIES) {
        await takeAway(run, 'given-up');
        return;
      }
      run.handling = true;
      try {
        await sleep(300);
        await run.sim?.unplug().catch(() => undefined);
        // Out for longer than the device list's grace (3 s, a reboot's gap), or the Station takes it
        // for the same plug and the failed lane waits on.
        await sleep(UNPLUGGED_MS);
        run.replugs += 1;
        run.lastWordAt = performance.now();
        await run.sim?.plug();
      } finally {
        run.handling = false;
      }
    };
    const plug = async (run: DeviceRun): Promise<void> => {
      run.status = 'plugged';
      run.lastWordAt = performance.now();
      run.sim = await startSimulatedDevice({
        deviceType: run.plan.deviceType,
        serialNumber: run.plan.serialNumber,
        link: 'pty',
        ...DEVICE_SPEED,
        stateDir: join(workDir, 'devices', run.plan.serialNumber),
        ptyDir,
        publicKeyPem,
        releaseKeysPem,
        faults: run.plan.faults,
      });
    };
    const faultStats = () => {
      const total = { pulls: 0, powerCycles: 0, corrupted: 0, stalls: 0, dropped: 0 };
      for (const sim of faulted.values()) {
        total.pulls += sim.faultStats.pulls;
        total.powerCycles += sim.faultStats.powerCycles;
        total.corrupted += sim.faultStats.corrupted;
        total.stalls += sim.faultStats.stalls;
        total.dropped += sim.faultStats.dropped;
      }
      return total;
    };
    /** The faulted devices' simulators, kept for their fault counts after they are taken away. */
    const faulted = new Map<string, SimulatedDevice>();

    // --- The shift.
    const deadline = performance.now() + MINUTES * 60_000;
    const samples: Samples = { stationWarm: null, serviceWarm: null };
    const chaosLog: { at: number; action: string; seconds: number; note: string }[] = [];
    const watched = stack.instances[1]!;
    const victim = stack.instances[0]!;
    station = startStation();
    /** The RSS of the Station now running (a Station started again starts a series of its own) and of the instance. */
    const rssSeries = { station: new Map<number, RssSample[]>(), service: [] as RssSample[] };
    const rssReader = setInterval(() => {
      const at = performance.now();
      const pid = station?.child.pid;
      if (pid !== undefined) {
        const series = rssSeries.station.get(pid) ?? [];
        series.push({ at, mib: rssMiB(pid) });
        rssSeries.station.set(pid, series);
      }
      rssSeries.service.push({ at, mib: rssMiB(watched.pid) });
    }, 1000);
    // Never what keeps the bench alive when the shift ends in an error.
    rssReader.unref();
    /**
     * The instance's heap, from its /metrics: the old space's low in a window is about what it
     * keeps alive (its garbage goes at each full collection), which RSS alone does not tell.
     */
    const heapSeries = { old: [] as RssSample[], young: [] as RssSample[] };
    const heapReader = setInterval(() => {
      const at = performance.now();
      void instanceHeapMiB(watched.url).then((heap) => {
        heapSeries.old.push({ at, mib: heap.heapOld });
        heapSeries.young.push({ at, mib: heap.heapNew });
      });
    }, HEAP_READ_MS);
    heapReader.unref();
    let chaosNext = 0;
    let chaosBusy = false;
    const chaos = async (action: (typeof CHAOS)[number]['action']): Promise<string> => {
      if (action === 'kill-instance') {
        process.kill(victim.pid, 'SIGKILL');
        log(`SIGKILL ${victim.name} (pid ${victim.pid})`);
        await sleep(2000);
        await restartInstance(stack, victim);
        return `${victim.name} killed, up again as pid ${victim.pid}`;
      }
      if (action === 'restart-postgres') {
        log('restarting PostgreSQL');
        await restartPostgres(stack);
        return 'PostgreSQL restarted';
      }
      const old = station!;
      log(`SIGKILL the Station (pid ${old.child.pid})`);
      old.child.kill('SIGKILL');
      await old.done;
      const up = new Promise<void>((resolve) => (stationStarted = resolve));
      station = startStation();
      // The next blow waits until the new Station is at work (bounded: it may not come up).
      await Promise.race([up, sleep(120_000)]);
      return `Station killed, started again as pid ${station.child.pid}`;
    };
    let ticks = 0;
    while (finishedCount() < DEVICES && performance.now() < deadline && !aborted) {
      ticks += 1;
      await sleep(250);
      const share = finishedCount() / DEVICES;
      // Plug in what the lanes can take, and a few more at hand.
      const working = [...runs.values()].filter((r) => r.status === 'plugged').length;
      const next = [...runs.values()].filter((r) => r.status === 'pending').slice(0, LANES + WAITING_AT_HAND - working);
      for (const run of next) {
        await plug(run);
        if (run.plan.faultNames.length > 0) faulted.set(run.plan.serialNumber, run.sim!);
      }
      // A device the Station has said nothing of for long: failed, and plugged in again.
      for (const run of runs.values())
        if (run.status === 'plugged' && !run.handling && performance.now() - run.lastWordAt > SILENT_MS) {
          run.outcomes.push('failed');
          run.reasons.push(`no word from the Station for ${SILENT_MS / 1000} s`);
          log(`${run.plan.serialNumber}: no word from the Station for ${SILENT_MS / 1000} s; plugging it in again`);
          void retry(run);
        }
      if (samples.serviceWarm === null && share >= WARM_UP.service)
        samples.serviceWarm = { rss: rssMiB(watched.pid), fds: openFds(watched.pid), at: performance.now() };
      // The Station that runs to the end is warm once it has finished a tenth of the shift itself.
      if (
        samples.stationWarm === null &&
        share >= WARM_UP.station &&
        stationStarts > 1 &&
        finishedCount() - finishedAtStationStart >= Math.max(1, Math.round(DEVICES / 10))
      ) {
        // One reading of the descriptors, so that the count and its kinds agree.
        const fdKinds = openFdKinds(station.child.pid!);
        samples.stationWarm = {
          rss: rssMiB(station.child.pid!),
          fds: fdTotal(fdKinds),
          fdKinds,
          at: performance.now(),
        };
        if (HEAP_SNAPSHOTS !== undefined) await heapSnapshot(station.child.pid!, 'warm');
      }
      if (!chaosBusy && chaosNext < CHAOS.length && share >= CHAOS[chaosNext]!.at) {
        const blow = CHAOS[chaosNext]!;
        chaosNext += 1;
        chaosBusy = true;
        const at = (performance.now() - started) / 1000;
        void chaos(blow.action)
          .then((note) => chaosLog.push({ at: blow.at, action: blow.action, seconds: Math.round(at), note }))
          .catch((error: unknown) =>
            chaosLog.push({
              at: blow.at,
              action: blow.action,
              seconds: Math.round(at),
              note: `failed: ${String(error)}`,
            }),
          )
          .finally(() => {
            chaosBusy = false;
          });
      }
      if (ticks % 240 === 0) log(`${finishedCount()}/${DEVICES} finished, ${working} plugged`);
    }
    if (aborted) throw new Error('stopped by a signal: the stack and the devices are stopped, nothing is measured');
    const timedOut = finishedCount() < DEVICES;
    if (timedOut) log(`the shift's ${MINUTES} minutes are up with ${finishedCount()}/${DEVICES} finished`);
    for (let i = 0; i < 240 && chaosBusy; i++) await sleep(250);
    // At rest: nothing plugged in a few seconds, then the end's memory and descriptors.
    for (const run of runs.values())
      if (run.sim) await takeAway(run, run.status === 'plugged' ? 'given-up' : 'finished');
    await sleep(3000);
    const stationPid = station.child.pid!;
    clearInterval(rssReader);
    clearInterval(heapReader);
    const endAt = performance.now();
    const windows = {
      station: rssWindows(
        rssSeries.station.get(stationPid) ?? [],
        samples.stationWarm?.at ?? endAt,
        endAt,
        RSS_WINDOW_MS,
      ),
      service: rssWindows(rssSeries.service, samples.serviceWarm?.at ?? endAt, endAt, RSS_WINDOW_MS),
    };
    const serviceHeap = {
      old: rssWindows(heapSeries.old, samples.serviceWarm?.at ?? endAt, endAt, RSS_WINDOW_MS),
      young: rssWindows(heapSeries.young, samples.serviceWarm?.at ?? endAt, endAt, RSS_WINDOW_MS),
    };
    const stationFdKinds = openFdKinds(stationPid);
    const end = {
      station: { rss: rssMiB(stationPid), fds: fdTotal(stationFdKinds), fdKinds: stationFdKinds },
      service: { rss: rssMiB(watched.pid), fds: openFds(watched.pid) },
    };
    if (HEAP_SNAPSHOTS !== undefined) await heapSnapshot(stationPid, 'end');
    const shiftSeconds = (performance.now() - started) / 1000;

    log('stopping the Station (Ctrl-C)');
    station.child.kill('SIGINT');
    const stopTimer = setTimeout(() => station?.child.kill('SIGKILL'), 120_000);
    const stopped = await station.done;
    clearTimeout(stopTimer);
    log(`the Station exited with ${stopped.code ?? stopped.signal}; its last words: ${stopped.stderr.slice(-600)}`);
    const synced = await runCli(home, ['outbox', 'sync', '--json'], env, 180_000);
    let outboxPending: number | null = null;
    let outboxRefused: number | null = null;
    try {
      const sync = JSON.parse(synced.stdout.trim().split('\n').at(-1) ?? '') as {
        pending: { count: number };
        rejected: unknown[];
      };
      outboxPending = sync.pending.count;
      outboxRefused = sync.rejected.length;
    } catch {
      log(`outbox sync said: ${synced.stdout.slice(-500)} ${synced.stderr.slice(-500)}`);
    }

    // What is left in the outbox, by state (a confirmation the service refused is kept there for a person).
    const outboxStates: Record<string, number> = {};
    const listed = await runCli(home, ['outbox', 'list', '--json'], env, 120_000);
    try {
      for (const entry of JSON.parse(listed.stdout) as { state: string }[])
        outboxStates[entry.state] = (outboxStates[entry.state] ?? 0) + 1;
    } catch {
      log(`outbox list printed no entries (exit ${listed.code}): ${listed.stderr.slice(-500)}`);
    }

    // --- Every device plugged in again, a batch at a time: does its service record equal what it runs?
    let inSync = 0;
    const notInSync: string[] = [];
    for (let from = 0; from < plan.length; from += VERIFY_BATCH) {
      const batch = plan.slice(from, from + VERIFY_BATCH);
      const batchDir = join(simDir, `verify-${from}`);
      const sims: SimulatedDevice[] = [];
      try {
        for (const device of batch)
          sims.push(
            await startSimulatedDevice({
              deviceType: device.deviceType,
              serialNumber: device.serialNumber,
              link: 'pty',
              ...DEVICE_SPEED,
              stateDir: join(workDir, 'devices', device.serialNumber),
              ptyDir: batchDir,
              publicKeyPem,
              releaseKeysPem,
            }),
          );
        const verify = await runCli(home, ['device', 'verify', '--all', '--json'], cliEnv(batchDir), 300_000);
        let verdicts: { serialNumber: string; state: string }[] = [];
        try {
          verdicts = JSON.parse(verify.stdout) as typeof verdicts;
        } catch {
          log(`device verify printed no verdicts (exit ${verify.code}): ${verify.stderr.slice(-1000)}`);
        }
        for (const device of batch) {
          const verdict = verdicts.find((v) => v.serialNumber === device.serialNumber);
          if (verdict?.state === 'in-sync') inSync += 1;
          else notInSync.push(`${device.serialNumber}: ${verdict?.state ?? 'not seen'}`);
        }
      } finally {
        await Promise.allSettled(sims.map((sim) => sim.stop()));
      }
    }
    log(`in sync by device verify --all: ${inSync}/${DEVICES}`);

    const ledgerRun = await runCli(home, ['ledger', 'verify', '--json'], env, 300_000);
    let ledger: { ok?: boolean; local?: { ok?: boolean }; service?: { chain?: { ok?: boolean } } } = {};
    try {
      ledger = JSON.parse(ledgerRun.stdout.trim().split('\n').at(-1) ?? '') as typeof ledger;
    } catch {
      log(`ledger verify printed no result (exit ${ledgerRun.code}): ${ledgerRun.stderr.slice(-1000)}`);
    }

    const confirmations = tallyConfirmations(
      stationConfirmations(home, new Set(serials)),
      await storedConfirmations(stack, serials),
    );
    const devices = tallyDevices(
      serials,
      new Map([...runs].map(([serial, run]) => [serial, run.outcomes])),
      new Map([...runs].map(([serial, run]) => [serial, run.replugs])),
    );
    const reasons = new Map<string, number>();
    for (const run of runs.values())
      for (const reason of run.reasons) reasons.set(reason.slice(0, 160), (reasons.get(reason.slice(0, 160)) ?? 0) + 1);
    const result = {
      devices: DEVICES,
      lanes: LANES,
      done: devices.done,
      failed: devices.failed,
      retried: devices.retried,
      done_on_retry: devices.doneOnRetry,
      unfinished: devices.unfinished,
      in_sync: inSync,
      confirmations_sent: confirmations.sent,
      confirmations_stored: confirmations.stored,
      lost: confirmations.lost,
      doubled: confirmations.doubled,
      stored_unknown: confirmations.unknown,
      stored_unknown_by_label: confirmations.unknownByLabel,
      outbox_pending: outboxPending,
      outbox_refused: outboxRefused,
      outbox_left: outboxStates,
      ledger_ok: ledger.ok === true,
      ledger_local_ok: ledger.local?.ok === true,
      ledger_service_ok: ledger.service?.chain?.ok === true,
      rss_mb: {
        station: { warm: samples.stationWarm?.rss ?? null, end: end.station.rss },
        service: { warm: samples.serviceWarm?.rss ?? null, end: end.service.rss },
      },
      // The highs of the window after warm-up and of the last (rssWindows: one reading lands anywhere on the young generation's swing).
      rss_growth: {
        station: growth(windows.station.warm?.high ?? null, windows.station.end?.high ?? null),
        service: growth(windows.service.warm?.high ?? null, windows.service.end?.high ?? null),
      },
      rss_growth_low: {
        station: growth(windows.station.warm?.low ?? null, windows.station.end?.low ?? null),
        service: growth(windows.service.warm?.low ?? null, windows.service.end?.low ?? null),
      },
      rss_window_mb: windows,
      // The instance's old space (lows: about what it keeps alive) and young generation, in the same windows.
      service_heap_window_mb: serviceHeap,
      service_heap_old_growth_low: growth(serviceHeap.old.warm?.low ?? null, serviceHeap.old.end?.low ?? null),
      rss_window_seconds: RSS_WINDOW_MS / 1000,
      // The single readings at the two points, as the bench reported growth before.
      rss_growth_point: {
        station: growth(samples.stationWarm?.rss ?? null, end.station.rss),
        service: growth(samples.serviceWarm?.rss ?? null, end.service.rss),
      },
      fd_open_start: { station: samples.stationWarm?.fds ?? null, service: samples.serviceWarm?.fds ?? null },
      fd_open_end: { station: end.station.fds, service: end.service.fds },
      // What the Station's descriptors were, to tell keep-alive sockets from a file left open.
      fd_kinds_station: { start: samples.stationWarm?.fdKinds ?? null, end: end.station.fdKinds },
      faults: faultStats(),
      chaos: chaosLog,
      station_starts: stationStarts,
      station_node_options: STATION_NODE_OPTIONS,
      shift_parameters_seconds: shiftParametersSeconds,
      timed_out: timedOut,
      shift_seconds: Math.round(shiftSeconds),
      cores: cpus().length,
      failure_reasons: Object.fromEntries([...reasons].sort((a, b) => b[1] - a[1]).slice(0, 12)),
      not_in_sync: notInSync.slice(0, 20),
      lost_examples: confirmations.lostExamples,
    };
    if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else for (const [name, value] of Object.entries(result)) console.log(`${name.padEnd(22)} ${JSON.stringify(value)}`);
    if (devices.unfinished > 0 || confirmations.lost > 0 || confirmations.doubled > 0 || !result.ledger_ok)
      process.exitCode = 1;
  } finally {
    if (station && station.child.exitCode === null && station.child.signalCode === null) station.child.kill('SIGKILL');
    // Bounded: a device's stop that never settles must not keep the stack up (the timer keeps this process alive).
    await Promise.race([Promise.allSettled([...runs.values()].map((run) => run.sim?.stop())), sleep(15_000)]);
    await down(stack.runDir);
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
