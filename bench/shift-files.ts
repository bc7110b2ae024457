/**
 * A shift's configuration files (issue 30): `npx tsx bench/shift-files.ts [--sizes 30,100,300]
 * [--json]`. What a Station starting a shift asks the service for: the configuration file of every
 * device of one ISM configuration (SRCP senders, EPC receivers, as the soak seeds it), eight at
 * once, each the first download of its device (so each issues its syncId). Per size, two
 * configurations of that size in one embedded service (PGlite, in this process): one fetched with
 * the service's read cache, where the configuration's file state is computed once and shared by its
 * devices' files (server/configurations/file-plan.ts), and one with the read cache off, where every
 * file computes the whole configuration's state, as each cold download did before. Prints a table,
 * or one JSON object as the last line with --json.
 */
import { parseArgs } from 'node:util';
import { createContext, openDatabase, seedDemo, upsertManufacturingRecords } from '../server';
import { buildApp } from '../server/http/app';
import { ALL_OPERATIONS } from '../server/routes';
import { srcpToEpcOverIsm } from '../server/seed/typical-flows';
import { orgApi } from './org-api';

const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '30,100,300' }, json: { type: 'boolean', default: false } },
});
const SIZES = values.sizes.split(',').map((text) => {
  const size = Number(text);
  if (!Number.isInteger(size) || size < 2) {
    console.error(`error: --sizes takes whole numbers of at least 2, separated by commas; got "${text}"`);
    process.exit(2);
  }
  return size;
});
/** Files asked at once, as the Station asks them (main/features/station/shift-parameters.ts). */
const AT_ONCE = 8;

const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const db = await openDatabase({ dataDir: 'memory://' });
  const { orgId, adminKey } = await seedDemo(db);
  const ctx = await createContext(db);
  const app = buildApp(ctx, ALL_OPERATIONS);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1/organizations/${orgId}`;
  const headers = { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' };
  const api = orgApi(base, headers);

  let next = 1;
  /** A configuration of `size` new devices, half SRCP senders and half EPC receivers; their serial numbers. */
  const configuration = async (size: number): Promise<string[]> => {
    const devices = Array.from({ length: size }, (_, i) => {
      const deviceType = i % 2 === 0 ? ('SRCP' as const) : ('EPC' as const);
      return { serialNumber: `${deviceType}${String(700000 + next++).padStart(6, '0')}`, deviceType };
    });
    await upsertManufacturingRecords(
      db,
      devices.map((d) => ({ serialNumber: d.serialNumber, deviceType: d.deviceType, model: `${d.deviceType} bench` })),
    );
    for (const d of devices) await api('POST', `/devices?serialNumber=${d.serialNumber}&name=${d.serialNumber}`);
    const created = await api('POST', '/configurations', {
      ...srcpToEpcOverIsm.configuration,
      name: `Shift ${next}`,
    });
    for (const d of devices)
      await api(
        'POST',
        `/configurations/${created.id}/devices`,
        d.deviceType === 'SRCP'
          ? {
              serialNumber: d.serialNumber,
              deviceConfigurationType: 'Sender',
              commInterface: 'ISM',
              inputConfiguration1: 'NOT_USED',
              inputConfiguration2: 'NOT_USED',
            }
          : { serialNumber: d.serialNumber, deviceConfigurationType: 'Receiver', commInterface: 'ISM', can0Id: 1 },
      );
    return devices.map((d) => d.serialNumber);
  };

  /** Seconds to fetch every file, AT_ONCE at a time. */
  const fetchAll = async (serials: readonly string[]): Promise<number> => {
    const started = performance.now();
    const queue = [...serials];
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        for (let serial = queue.shift(); serial !== undefined; serial = queue.shift()) {
          const response = await fetch(`${base}/devices/${serial}/configuration-file`, { headers });
          if (!response.ok) throw new Error(`file of ${serial}: ${response.status} ${await response.text()}`);
          await response.arrayBuffer();
        }
      }),
    );
    return (performance.now() - started) / 1000;
  };

  const rows: Array<{ devices: number; shared_s: number; each_s: number; ratio: number }> = [];
  const reads = ctx.reads;
  try {
    for (const size of SIZES) {
      log(`seeding two configurations of ${size} devices`);
      const shared = await configuration(size);
      const each = await configuration(size);
      ctx.reads = reads;
      const sharedSeconds = await fetchAll(shared);
      ctx.reads = null;
      const eachSeconds = await fetchAll(each);
      ctx.reads = reads;
      rows.push({
        devices: size,
        shared_s: Math.round(sharedSeconds * 100) / 100,
        each_s: Math.round(eachSeconds * 100) / 100,
        ratio: Math.round((eachSeconds / sharedSeconds) * 10) / 10,
      });
      log(`${size} devices: ${sharedSeconds.toFixed(2)} s shared, ${eachSeconds.toFixed(2)} s each on its own`);
    }
  } finally {
    ctx.reads = reads;
    await app.close();
    await db.close();
  }
  if (values.json) process.stdout.write(`${JSON.stringify({ at_once: AT_ONCE, sizes: rows })}\n`);
  else {
    console.log('devices | all files, state shared (s) | all files, each computes it (s) | ratio');
    for (const row of rows) console.log(`${row.devices} | ${row.shared_s} | ${row.each_s} | ${row.ratio}`);
  }
}

await main();
