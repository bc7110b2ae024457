/**
 * The workstation's own data at scale (issue 30), `npm run bench -- workstation-scale [--json]
 * [--only outbox,ledger,cache]`: each figure at the size and at 10× and 100× smaller, so
 * the growth shows.
 *
 * - outbox: N firmware confirmations enqueued (each fsync'd, as a job writes it), the time to a
 *   ready core (createCore) with them waiting against an empty outbox, then the drain to the
 *   embedded service over HTTP: entries per second, and lost / doubled / out of order by the
 *   service's own records (test/fixtures/outbox-at-scale.ts).
 * - ledger: a ledger file of N signed entries; `verifyLedgers` (what `ledger verify --local` runs)
 *   in time per entry, one append at the end of it, and the commissioning report's ledger part
 *   (buildCommissioningReport reading from the head back): for the 10 devices done last, and for
 *   a configuration with a device the ledger never saw (the whole file read and checked).
 * - cache: N bundles of real firmware images (bench/real-firmware.ts: Debian packages) in the
 *   cache; list plus naming patches (what the Firmware screen and `cache list` do), with the index's
 *   image hashes and with an index written before it kept them.
 *
 * Prints tables, and with --json one JSON object as the last line.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { GENESIS_HASH, LEDGER_FORMAT, ledgerSignerKeyOf, signLedgerEntry, type LedgerEntry } from '../domain/ledger';
import { buildFirmwareBundle } from '../domain/files/firmware-bundle';
import { createFirmwarePatch } from '../domain/files/firmware-patch';
import { createCore, FileSecretStore } from '../main/core';
import { cachedPatches } from '../main/engine/cache/cached-patches';
import { FirmwareCache } from '../main/engine/cache/firmware-cache';
import { Ledger, verifyLedgers } from '../main/engine/ledger';
import { buildCommissioningReport } from '../main/features/report';
import type { ConfigurationRecord } from '../domain';
import { LEDGER_KEY_SECRET } from '../main/engine/ledger/ledger-key';
import { Outbox } from '../main/engine/outbox/outbox';
import { clientConfirmationSender } from '../main/engine/outbox/outbox-sender';
import { provisioningPaths } from '../main/engine/paths';
import { createServiceClient } from '../main/cloud';
import { DEMO_ORG_ID, seedDemo, startService } from '../server';
import { checkDrained, countingSender, fillOutbox, registeredSerials } from '../test/fixtures/outbox-at-scale';
import { reportDeviceRecord } from '../test/fixtures/commissioning-report';
import { loadRealImages, wrap } from './real-firmware';

const args = process.argv.slice(2);
const json = args.includes('--json');
const onlyArg =
  args.find((a) => a.startsWith('--only='))?.slice('--only='.length) ??
  (args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined);
const only = new Set((onlyArg ?? 'outbox,ledger,cache').split(','));
/** BENCH_SCALE=0.1 runs every size ten times smaller (a quick look, not the figures). */
const scale = Number(process.env.BENCH_SCALE ?? 1);
const sizes = (largest: number) =>
  [largest / 100, largest / 10, largest].map((n) => Math.max(1, Math.round(n * scale)));

const log = (text: string) => process.stderr.write(`${text}\n`);
const ms = (start: number) => performance.now() - start;
const round = (value: number, digits = 2) => Number(value.toFixed(digits));

// ---------------------------------------------------------------------------------------------- outbox

interface OutboxFigure {
  entries: number;
  enqueue_per_s: number;
  core_ready_ms: number;
  core_ready_empty_ms: number;
  outbox_view_ms: number;
  /** The page after the middle entry (a cursor deep in the outbox), as the screen's "Next" asks. */
  outbox_view_deep_ms: number;
  /** Outbox.page alone (no core beside it), median of 7: the first page, and the page after the middle entry. */
  page_alone_ms: number;
  page_alone_deep_ms: number;
  /** Outbox.overview alone, median of 3: every entry read, what outbox.get did before it had pages. */
  overview_alone_ms: number;
  drain_ms: number;
  drain_per_s: number;
  lost: number;
  doubled: number;
  out_of_order: number;
}

/**
 * The core's start on `dataDir` (no sign-in, no device discovery), how long the Outbox screen's
 * first answer took, and a page deep in the outbox (after `deepCursor`; none: the first again).
 */
async function timeCoreStart(
  dataDir: string,
  deepCursor?: string,
): Promise<{ readyMs: number; viewMs: number; deepMs: number }> {
  const started = performance.now();
  const core = await createCore({
    dataDir,
    secretStore: new FileSecretStore(join(dataDir, 'secrets.json')),
    host: 'test',
    resume: false,
    deviceSource: {
      start: async () => undefined,
      stop: async () => undefined,
      devices: () => [],
      on: () => () => undefined,
      refresh: async () => undefined,
    },
  });
  const readyMs = ms(started);
  const viewStarted = performance.now();
  await core.invoke('outbox.get', {});
  const viewMs = ms(viewStarted);
  const deepStarted = performance.now();
  await core.invoke('outbox.get', deepCursor ? { after: deepCursor } : {});
  const deepMs = ms(deepStarted);
  await core.close();
  return { readyMs, viewMs, deepMs };
}

/** The median time of `runs` calls of `work`, one after another. */
async function medianMs(runs: number, work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await work();
    times.push(ms(started));
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

async function outboxFigures(): Promise<OutboxFigure[]> {
  const service = await startService({ dataDir: 'memory://', port: 0 });
  try {
    const { adminKey } = await seedDemo(service.db, { configurations: true });
    const serials = await registeredSerials(service.db, DEMO_ORG_ID);
    const client = createServiceClient({ baseUrl: service.url, orgId: DEMO_ORG_ID, apiKey: adminKey });
    const figures: OutboxFigure[] = [];
    for (const [run, count] of sizes(10_000).entries()) {
      const root = await mkdtemp(join(tmpdir(), 'bench-outbox-'));
      try {
        const empty = await timeCoreStart(join(root, 'empty'));
        const dataDir = join(root, 'full');
        const dir = provisioningPaths(join(dataDir, 'provisioning')).outbox;
        const filling = new Outbox({ dir, sender: { send: () => Promise.reject(new Error('not sending yet')) } });
        const fillStarted = performance.now();
        // Each run's apply times are its own, so the service's records of one run do not match another's.
        const queued = await fillOutbox(filling, {
          count,
          serials,
          serviceUrl: service.url,
          orgId: DEMO_ORG_ID,
          firstAppliedAt: Date.UTC(2025, 0, 1) + run * 100_000_000,
        });
        const enqueueMs = ms(fillStarted);
        const middle = queued[Math.floor(count / 2)]?.id;
        const full = await timeCoreStart(dataDir, middle);
        const reader = new Outbox({ dir, sender: { send: () => Promise.reject(new Error('only reading')) } });
        const pageAloneMs = await medianMs(7, () => reader.page({ limit: 100 }));
        const pageAloneDeepMs = await medianMs(7, () => reader.page({ after: middle ?? null, limit: 100 }));
        const overviewAloneMs = await medianMs(3, () => reader.overview());
        const sender = countingSender(clientConfirmationSender(() => client));
        const outbox = new Outbox({ dir, sender });
        const drainStarted = performance.now();
        const report = await outbox.syncNow({ force: true });
        const drainMs = ms(drainStarted);
        if (report.rejected.length + report.retrying.length > 0)
          throw new Error(`outbox drain: ${report.rejected.length} rejected, ${report.retrying.length} retrying`);
        const check = await checkDrained(service.db, DEMO_ORG_ID, queued, sender.sends);
        figures.push({
          entries: count,
          enqueue_per_s: round((count / enqueueMs) * 1000, 0),
          core_ready_ms: round(full.readyMs, 0),
          core_ready_empty_ms: round(empty.readyMs, 0),
          outbox_view_ms: round(full.viewMs, 0),
          outbox_view_deep_ms: round(full.deepMs, 0),
          page_alone_ms: round(pageAloneMs, 1),
          page_alone_deep_ms: round(pageAloneDeepMs, 1),
          overview_alone_ms: round(overviewAloneMs, 0),
          drain_ms: round(drainMs, 0),
          drain_per_s: round((count / drainMs) * 1000, 0),
          lost: check.lost,
          doubled: check.doubled,
          out_of_order: check.outOfOrder,
        });
        log(`outbox ${count}: ${JSON.stringify(figures.at(-1))}`);
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    }
    return figures;
  } finally {
    await service.close();
  }
}

// ---------------------------------------------------------------------------------------------- ledger

interface LedgerFigure {
  entries: number;
  file_mb: number;
  verify_ms: number;
  verify_us_per_entry: number;
  append_ms: number;
  /** The report of the 10 devices done last: its time and how many entries it read back from the head. */
  report_ms: number;
  report_entries_read: number;
  /** The report of a configuration with a device the ledger never saw: every entry read and checked. */
  report_whole_ms: number;
}

/** The device of entry `seq`: each device's firmware install (odd seq) then its configuration apply (even seq), 5,000 devices in turn. */
function benchSerialOf(seq: number): string {
  return `EPC${String(Math.floor((seq - 1) / 2) % 5000).padStart(6, '0')}`;
}

/** buildCommissioningReport of `serials` from the ledger read from its head, as make-report.ts hands it. */
async function timeReport(ledger: Ledger, serials: readonly string[]): Promise<{ ms: number; read: number }> {
  const started = performance.now();
  const report = await buildCommissioningReport({
    configuration: { id: 'bench', name: 'Bench line' } as unknown as ConfigurationRecord,
    devices: serials.map((serial) => reportDeviceRecord(serial)),
    ledger: ledger.fromHead(),
    signerKey: await ledger.signerKey(),
    firmware: async () => undefined,
    workstation: 'bench-workstation',
    service: 'the local workspace',
    orgId: 'demo',
    now: new Date(),
    timeZone: 'UTC',
  });
  const took = ms(started);
  if (!report.ledger.intact) throw new Error(`report: the ledger is broken (${report.ledger.broken})`);
  return { ms: took, read: report.ledger.entries };
}

/** A ledger directory whose file holds `count` entries signed by its own key (written in one go: appending one by one is what is measured). */
async function writeLedger(dir: string, count: number): Promise<Ledger> {
  await mkdir(dir, { recursive: true });
  const privateKeyPem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const secrets = new FileSecretStore(join(dir, 'secrets.json'));
  await secrets.set(
    LEDGER_KEY_SECRET,
    JSON.stringify({ algorithm: 'ed25519', privateKeyPem, createdAt: new Date(0).toISOString() }),
  );
  const signerKey = ledgerSignerKeyOf(privateKeyPem);
  const lines: string[] = [];
  let previous: LedgerEntry | undefined;
  for (let seq = 1; seq <= count; seq += 1) {
    const serial = benchSerialOf(seq);
    previous = signLedgerEntry(
      {
        format: LEDGER_FORMAT,
        seq,
        at: new Date(Date.UTC(2026, 0, 1) + seq * 1000).toISOString(),
        action: seq % 2 === 1 ? 'firmware-install' : 'configuration-apply',
        outcome: 'success',
        serialNumber: serial,
        workstation: 'bench-workstation',
        actor: 'Bench technician',
        serviceUrl: 'http://service.example/v1',
        orgId: 'demo',
        facts:
          seq % 2 === 0
            ? {
                syncId: '6f1c2c3e-0000-4000-8000-000000000000',
                appliedAt: new Date(Date.UTC(2026, 0, 1) + seq * 1000).toISOString(),
              }
            : { firmwareVersion: '1.1.0', imageSha256: 'a'.repeat(64) },
        prevHash: previous?.hash ?? GENESIS_HASH,
        signerKey,
      },
      privateKeyPem,
    );
    lines.push(JSON.stringify(previous));
  }
  await writeFile(join(dir, 'ledger.jsonl'), `${lines.join('\n')}\n`);
  // On disk before anything is timed: else the first append's fsync pays for writing all of it.
  const handle = await open(join(dir, 'ledger.jsonl'), 'r+');
  await handle.sync();
  await handle.close();
  return new Ledger({ dir, secrets });
}

async function ledgerFigures(): Promise<LedgerFigure[]> {
  const figures: LedgerFigure[] = [];
  for (const count of sizes(100_000)) {
    const root = await mkdtemp(join(tmpdir(), 'bench-ledger-'));
    try {
      const ledger = await writeLedger(root, count);
      const size = (await readFile(ledger.path)).length;
      const verifyStarted = performance.now();
      const result = await verifyLedgers(ledger, { workstation: 'bench-workstation' });
      const verifyMs = ms(verifyStarted);
      if (!result.local.ok) throw new Error(`ledger of ${count}: ${JSON.stringify(result.local.broken)}`);
      // The median of five appends (each two fsyncs: the file, and the sealed head in the secrets file).
      const appends: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const appendStarted = performance.now();
        await ledger.append({
          at: new Date().toISOString(),
          action: 'verify',
          outcome: 'success',
          serialNumber: 'EPC000001',
          workstation: 'bench-workstation',
          facts: {},
        });
        appends.push(ms(appendStarted));
      }
      const appendMs = appends.sort((a, b) => a - b)[2]!;
      // The report of the last 10 devices done (entries count, count - 2, …: each its install and apply).
      const lastTen = Array.from({ length: 10 }, (_, i) => benchSerialOf(count - 2 * i));
      const near = await timeReport(ledger, lastTen);
      const whole = await timeReport(ledger, [...lastTen.slice(1), 'EPC999999']);
      if (whole.read !== count + 5)
        throw new Error(`report of an unknown device read ${whole.read} entries, not all ${count + 5}`);
      figures.push({
        entries: count,
        file_mb: round(size / 1e6),
        verify_ms: round(verifyMs, 0),
        verify_us_per_entry: round((verifyMs * 1000) / count, 1),
        append_ms: round(appendMs, 1),
        report_ms: round(near.ms, 1),
        report_entries_read: near.read,
        report_whole_ms: round(whole.ms, 0),
      });
      log(`ledger ${count}: ${JSON.stringify(figures.at(-1))}`);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }
  return figures;
}

// ---------------------------------------------------------------------------------------------- cache

interface CacheFigure {
  bundles: number;
  cache_mb: number;
  list_ms: number;
  /** The first listing with an index written before it kept image hashes: every bundle opened once. */
  list_old_index_ms: number;
  list_after_gain_ms: number;
}

async function cacheFigures(): Promise<CacheFigure[]> {
  const { images, largeImages } = loadRealImages();
  const real = [...images, ...largeImages];
  const figures: CacheFigure[] = [];
  const releaseKeyPem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  for (const count of sizes(500)) {
    const root = await mkdtemp(join(tmpdir(), 'bench-cache-'));
    try {
      const cache = new FirmwareCache({ dir: root });
      let bytes = 0;
      const kept: Uint8Array[] = [];
      for (let i = 0; i < count; i += 1) {
        // A real image behind our header: each bundle's version (in the header) makes its image its own.
        const source = real[i % real.length]!;
        const deviceType = (['EPC', 'SRCP', 'WESP', 'NSCP'] as const)[i % 4]!;
        const version = `1.${Math.floor(i / 4)}.0`;
        const image = wrap(source, deviceType, version);
        const bundle = buildFirmwareBundle({ deviceType, version, image, releaseKeyPem });
        bytes += bundle.length;
        await cache.put(bundle, { source: `file ${source.name}` });
        if (i === 0 || i === Math.min(real.length, count - 1)) kept.push(image);
      }
      // One patch kept (two builds of one real image), so that listing names releases by image hash, as `cache list` and the Firmware screen do.
      const [base, target] = kept;
      const digest = (image: Uint8Array) => new Uint8Array(createHash('sha256').update(image).digest());
      if (base && target)
        await cache.patches.put(
          createFirmwarePatch(base, target, { baseSha256: digest(base), targetSha256: digest(target) }),
        );
      const timeList = async () => {
        const fresh = new FirmwareCache({ dir: root });
        const started = performance.now();
        await cachedPatches(fresh, await fresh.list());
        return ms(started);
      };
      // The best of three: the first look also pays for loading the code.
      const listMs = Math.min(await timeList(), await timeList(), await timeList());
      const index = JSON.parse(await readFile(join(root, 'index.json'), 'utf8')) as {
        entries: Array<Record<string, unknown>>;
      };
      await writeFile(
        join(root, 'index.json'),
        JSON.stringify({ ...index, entries: index.entries.map(({ imageSha256: _dropped, ...rest }) => rest) }),
      );
      // The first listing after an update from a version whose index kept no image hashes opens every bundle once; the index then gains them.
      const oldIndexMs = await timeList();
      const afterMs = await timeList();
      figures.push({
        bundles: count,
        cache_mb: round(bytes / 1e6, 1),
        list_ms: round(listMs, 1),
        list_old_index_ms: round(oldIndexMs, 1),
        list_after_gain_ms: round(afterMs, 1),
      });
      log(`cache ${count}: ${JSON.stringify(figures.at(-1))}`);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }
  return figures;
}

// ---------------------------------------------------------------------------------------------- main

const result: Record<string, unknown> = { cores: cpus().length };
if (only.has('outbox')) result['outbox'] = await outboxFigures();
if (only.has('ledger')) result['ledger'] = await ledgerFigures();
if (only.has('cache')) result['cache'] = await cacheFigures();
if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
else {
  for (const [name, rows] of Object.entries(result)) {
    if (!Array.isArray(rows)) continue;
    console.log(`\n${name}`);
    console.table(rows);
  }
}
