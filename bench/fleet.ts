/**
 * Fleet throughput: N simulated EPC devices at 115200 baud updated at once through the provisioning
 * core (job queue, firmware job, device operations, CoAP engine over real pty serial links).
 *
 *   npx tsx bench/fleet.ts                          128 KiB image, fleets of 1, 16, 32, 64 and 128
 *   npx tsx bench/fleet.ts --image-kib 64 --fleets 1,8
 *   npx tsx bench/fleet.ts --devices inline         the simulated devices in this process, as before
 *   npx tsx bench/fleet.ts --json                   the figures as one JSON object, the last line
 *
 * The simulated devices run in a simulator process of their own (`simulator --fleet FILE`), so that
 * this process holds the host's side (and the embedded service) alone and each side's CPU is read
 * apart: this process with process.cpuUsage(), the simulator and the socat processes behind the
 * ptys from /proc/<pid>/stat. The single device runs in the same invocation as the fleets, so that
 * every ratio compares runs that met the same load on a shared machine.
 *
 * For each fleet size it prints:
 *   aggregate   image bytes of all devices / time from the first upload starting to the last ending
 *   linear      aggregate / (N × the single device's aggregate): 1.0 is perfectly linear
 *   job time    from submitting the jobs to the last confirmation (includes apply and reboot)
 *   CPU / MiB   CPU seconds per MiB delivered during the upload window (first upload start to last
 *               upload end), of the host (this process), the devices (the simulator) and socat;
 *               and the host's over the whole run (connecting, apply, confirmations included)
 *   loop        this process's event loop during the upload window: its utilization (the share of
 *               time it was busy) and the delay of its timers (perf_hooks.monitorEventLoopDelay)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildFirmwareBundle, makeFirmwareImage } from '../domain/files';
import { createServiceClient } from '../main/cloud';
import { prefetchFirmware } from '../main/engine/cache/prefetch';
import { createDeviceConnector, createJobsEngine } from '../main/engine/jobs';
import {
  importFirmwareBundle,
  loadDefaultReleaseKey,
  seedDemo,
  startService,
  upsertManufacturingRecords,
} from '../server';
import { startFleetDevices, type DevicePlacement } from './fleet-devices';
import { measureUploadWindow, type UploadWindow } from './fleet-window';

const { values } = parseArgs({
  options: {
    'image-kib': { type: 'string', default: '128' },
    fleets: { type: 'string', default: '1,16,32,64,128' },
    baud: { type: 'string', default: '115200' },
    devices: { type: 'string', default: 'process' },
    json: { type: 'boolean', default: false },
  },
});
const imageBytes = Number(values['image-kib']) * 1024;
const fleets = values.fleets.split(',').map(Number);
const baudRate = Number(values.baud);
if (!(imageBytes > 0) || fleets.some((n) => !Number.isSafeInteger(n) || n < 1) || !(baudRate > 0)) {
  console.error('error: --image-kib, --baud and each of --fleets (e.g. 1,16,64) must be positive numbers');
  process.exit(2);
}
if (values.devices !== 'process' && values.devices !== 'inline') {
  console.error(
    `error: --devices is process (a simulator process of their own) or inline (this process), not ${values.devices}`,
  );
  process.exit(2);
}
const placement: DevicePlacement = values.devices;
const VERSION = '9.0.0';
const serial = (i: number) => `EPC9${String(i + 1).padStart(5, '0')}`;

interface Result extends UploadWindow {
  devices: number;
  aggregate: number;
  jobSeconds: number;
  /** The host's CPU over the whole run (connecting, apply, confirmations), per MiB. */
  hostCpuPerMiBJob: number;
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

    const results: Result[] = [];
    for (const [run, count] of fleets.entries()) {
      const devices = await startFleetDevices({
        placement,
        serialNumbers: Array.from({ length: count }, (_, i) => serial(i)),
        baudRate,
        dir: join(scratch, `run${run}`),
        serviceUrl: service.url,
        publicKeyPem: service.ctx.secrets.signingKey.publicKeyPem,
        releaseKeysPem: [releaseKey.publicKeyPem],
        rebootMs: 200,
        applyMs: 100,
      });
      const provisioning = createJobsEngine({
        dataDir: join(scratch, `data${run}`),
        account: () => ({ client, serviceUrl: service.url, orgId: seed.orgId }),
        clientFor: () => client,
        connector: createDeviceConnector(),
        concurrency: count,
      });
      // The bundle is cached before the clock starts: the fleet, not the download, is measured.
      const prefetched = await prefetchFirmware(provisioning.cache, client, ['EPC']);
      for (const { error } of prefetched.failed) throw error;
      const window = measureUploadWindow(provisioning, devices, count);
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const jobs = provisioning.start(
        devices.paths.map((path, i) => ({
          action: 'firmware' as const,
          target: { kind: 'link' as const, spec: `serial:${path}@${baudRate}`, serialNumber: serial(i) },
        })),
      );
      const finals = await Promise.all(jobs.map((j) => provisioning.wait(j.jobId)));
      const jobSeconds = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const done = finals.filter((f) => f.phase === 'done').length;
      const figures = window.result(done * imageBytes);
      results.push({
        devices: count,
        ...figures,
        aggregate: (done * imageBytes) / figures.uploadSeconds,
        jobSeconds,
        hostCpuPerMiBJob: (cpu.user + cpu.system) / 1e6 / ((done * imageBytes) / (1024 * 1024)),
        failed: count - done,
      });
      for (const f of finals) if (f.phase !== 'done') console.error(`${f.serialNumber}: ${f.resultMessage}`);
      await provisioning.close();
      await devices.stop();
      process.stderr.write(`fleet of ${count}: done\n`);
    }
    report(results);
  } finally {
    await service.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

function report(results: Result[]): void {
  const single = results.find((r) => r.devices === 1)?.aggregate ?? results[0]!.aggregate / results[0]!.devices;
  const wire = baudRate / 10;
  const linear = (r: Result) => r.aggregate / (r.devices * single);
  const fixed = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
  console.log(
    `Fleet firmware update, ${imageBytes / 1024} KiB image per device, ${baudRate} baud (wire model ${(wire / 1000).toFixed(2)} kB/s per device), ` +
      `devices ${placement === 'process' ? 'in a simulator process' : 'in the bench process'}, ${cpus().length} cores.`,
  );
  console.log(
    '| devices | aggregate | per device | linear | job time | CPU per MiB: host / devices / socat (host, whole job) | host loop busy | loop delay p50 / p99 / max | failed |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.devices} | ${(r.aggregate / 1000).toFixed(1)} kB/s | ${(r.aggregate / r.devices / 1000).toFixed(2)} kB/s (${((r.aggregate / r.devices / wire) * 100).toFixed(0)}% of wire) | ${linear(r).toFixed(3)} | ${r.jobSeconds.toFixed(1)} s | ${fixed(r.hostCpuPerMiB, 2)} / ${fixed(r.devicesCpuPerMiB, 2)} / ${fixed(r.socatCpuPerMiB, 2)} s (${r.hostCpuPerMiBJob.toFixed(2)} s) | ${(r.loopUtilization * 100).toFixed(0)}% | ${r.loopDelayMs.p50.toFixed(0)} / ${r.loopDelayMs.p99.toFixed(0)} / ${r.loopDelayMs.max.toFixed(0)} ms | ${r.failed} |`,
    );
  }
  if (values.json) {
    console.log(
      JSON.stringify({
        imageKiB: imageBytes / 1024,
        baudRate,
        placement,
        cores: cpus().length,
        runs: results.map((r) => ({ ...r, linear: Number(linear(r).toFixed(3)) })),
      }),
    );
  }
}

await main();
