/**
 * Fleet throughput: N simulated devices (1, 4, 8, 16) at 115200 baud updated at once through the
 * provisioning core (job queue, firmware job, device operations, CoAP engine over real pty serial
 * links), with the service and the simulator in this process.
 *
 *   npx tsx bench/fleet.ts                       128 KiB image, fleets of 1, 4, 8 and 16
 *   npx tsx bench/fleet.ts --image-kib 64 --fleets 1,8
 *
 * For each fleet size it prints:
 *   aggregate   image bytes of all devices / time from the first upload starting to the last ending
 *   linear      aggregate / (N × the single device's aggregate): 1.0 is perfectly linear
 *   job time    from submitting the jobs to the last confirmation (includes apply and reboot)
 *   CPU / MiB   process.cpuUsage() (user + system) over the run / MiB delivered. This process runs
 *               the host side, the simulated devices (framing, pacing, flash model) and the service;
 *               the socat processes behind the ptys are not counted.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildFirmwareBundle, makeFirmwareImage } from '../domain/files';
import { createServiceClient } from '../main/cloud';
import { createDeviceConnector, createJobsEngine, type JobSnapshot } from '../main/engine/jobs';
import {
  importFirmwareBundle,
  loadDefaultReleaseKey,
  seedDemo,
  startService,
  upsertManufacturingRecords,
} from '../server';
import { startSimulatedDevice, type SimulatedDevice } from '../simulator';

const { values } = parseArgs({
  options: {
    'image-kib': { type: 'string', default: '128' },
    fleets: { type: 'string', default: '1,4,8,16' },
    baud: { type: 'string', default: '115200' },
  },
});
const imageBytes = Number(values['image-kib']) * 1024;
const fleets = values.fleets.split(',').map(Number);
const baudRate = Number(values.baud);
const VERSION = '9.0.0';
const serial = (i: number) => `EPC9${String(i + 1).padStart(5, '0')}`;

interface Result {
  devices: number;
  aggregate: number;
  jobSeconds: number;
  cpuPerMiB: number;
  /** Progress batches delivered to a listener per second, and job snapshots in them. */
  batchesPerSecond: number;
  snapshotsPerSecond: number;
  failed: number;
}

async function main(): Promise<void> {
  const scratch = await mkdtemp(join(tmpdir(), 'pv-bench-fleet-'));
  const service = await startService({ dataDir: join(scratch, 'service'), port: 0 });
  try {
    // The service's default release key signs the bench's firmware, as in local use; the devices trust it.
    const releaseKey = await loadDefaultReleaseKey(join(scratch, 'service'));
    const seed = await seedDemo(service.db, { releaseKey });
    const most = Math.max(...fleets);
    await upsertManufacturingRecords(
      service.db,
      Array.from({ length: most }, (_, i) => ({
        serialNumber: serial(i),
        deviceType: 'EPC' as const,
        model: 'EPC-300 bench',
      })),
    );
    const bytes = buildFirmwareBundle({
      deviceType: 'EPC',
      version: VERSION,
      image: makeFirmwareImage('EPC', VERSION, imageBytes - 64),
      releaseKeyPem: releaseKey.privateKeyPem,
    });
    await importFirmwareBundle(service.db, bytes, { deviceType: 'EPC', version: VERSION });
    const client = createServiceClient({ baseUrl: service.url, orgId: seed.orgId, apiKey: seed.adminKey });
    for (let i = 0; i < most; i += 1) await client.devices.register({ serialNumber: serial(i), name: serial(i) });
    const publicKeyPem = service.ctx.secrets.signingKey.publicKeyPem;

    const results: Result[] = [];
    for (const [run, count] of fleets.entries()) {
      const devices: SimulatedDevice[] = [];
      for (let i = 0; i < count; i += 1) {
        devices.push(
          await startSimulatedDevice({
            deviceType: 'EPC',
            serialNumber: serial(i),
            link: 'pty',
            baudRate,
            stateDir: join(scratch, `run${run}`, serial(i)),
            ptyDir: join(scratch, `sim${run}`),
            publicKeyPem,
            releaseKeysPem: [releaseKey.publicKeyPem],
            rebootMs: 200,
            applyMs: 100,
          }),
        );
      }
      const provisioning = createJobsEngine({
        dataDir: join(scratch, `data${run}`),
        account: () => ({ client, serviceUrl: service.url, orgId: seed.orgId }),
        clientFor: () => client,
        connector: createDeviceConnector(),
        concurrency: count,
      });
      // The bundle is cached before the clock starts: the fleet, not the download, is measured.
      await provisioning.cache.prefetch(client, ['EPC']);
      const uploads = new Map<string, { start: number; end: number | undefined }>();
      let batches = 0;
      let snapshots = 0;
      provisioning.onProgress((batch: JobSnapshot[]) => {
        batches += 1;
        snapshots += batch.length;
        const now = performance.now();
        for (const job of batch) {
          const seen = uploads.get(job.jobId);
          if (job.phase === 'uploading' && !seen) uploads.set(job.jobId, { start: now, end: undefined });
          if (job.phase !== 'uploading' && seen && seen.end === undefined) seen.end = now;
        }
      });
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const jobs = provisioning.start(
        devices.map((d) => ({
          action: 'firmware' as const,
          target: {
            kind: 'link' as const,
            spec: `serial:${d.descriptor.path!}@${baudRate}`,
            serialNumber: d.descriptor.serialNumber,
          },
        })),
      );
      const finals = await Promise.all(jobs.map((j) => provisioning.wait(j.jobId)));
      const jobSeconds = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const spans = [...uploads.values()];
      const first = Math.min(...spans.map((s) => s.start));
      const last = Math.max(...spans.map((s) => s.end ?? performance.now()));
      const delivered = finals.filter((f) => f.phase === 'done').length * imageBytes;
      results.push({
        devices: count,
        aggregate: delivered / ((last - first) / 1000),
        jobSeconds,
        cpuPerMiB: (cpu.user + cpu.system) / 1e6 / (delivered / (1024 * 1024)),
        batchesPerSecond: batches / jobSeconds,
        snapshotsPerSecond: snapshots / jobSeconds,
        failed: finals.filter((f) => f.phase !== 'done').length,
      });
      for (const f of finals) if (f.phase !== 'done') console.error(`${f.serialNumber}: ${f.resultMessage}`);
      await provisioning.close();
      await Promise.allSettled(devices.map((d) => d.stop()));
      process.stderr.write(`fleet of ${count}: done\n`);
    }

    const single = results.find((r) => r.devices === 1)?.aggregate ?? results[0]!.aggregate / results[0]!.devices;
    const wire = baudRate / 10;
    console.log(
      `Fleet firmware update, ${imageBytes / 1024} KiB image per device, ${baudRate} baud (wire model ${(wire / 1000).toFixed(2)} kB/s per device).`,
    );
    console.log(
      '| devices | aggregate | per device | linear (aggregate / N × single) | job time | CPU per MiB | progress batches/s (snapshots/s) | failed |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const r of results) {
      console.log(
        `| ${r.devices} | ${(r.aggregate / 1000).toFixed(1)} kB/s | ${(r.aggregate / r.devices / 1000).toFixed(2)} kB/s (${((r.aggregate / r.devices / wire) * 100).toFixed(0)}% of wire) | ${(r.aggregate / (r.devices * single)).toFixed(3)} | ${r.jobSeconds.toFixed(1)} s | ${r.cpuPerMiB.toFixed(2)} s | ${r.batchesPerSecond.toFixed(1)} (${r.snapshotsPerSecond.toFixed(0)}) | ${r.failed} |`,
      );
    }
  } finally {
    await service.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
