/**
 * Device link throughput: image bytes per second of a firmware upload divided by the wire model's
 * rate, against simulated devices (pty, simulated BLE through noble, UDP).
 *
 *   npx tsx bench/links.ts --json          real firmware (bench/real-firmware.ts) on serial 115200 and
 *                                          921600, BLE MTU 247 and UDP, identity, deflate and delta:
 *                                          one JSON object per line, then the decoder's peak memory
 *   npx tsx bench/links.ts                 the same as a table
 *   --only NAME                            the links whose name holds NAME (e.g. "115200")
 *   --zlib                                 (coded runs) deflate with zlib at upload, as before streams
 *                                          were made once with zopfli
 *   --identify                             (coded runs) the upload asks GET /info itself, as before it
 *                                          reused the job's reading
 *   --full-announce                        (coded runs) the full announce, as to a device without
 *                                          manifestAnnounce (not with --identify: an upload that
 *                                          asks /info itself announces as the answer says)
 *   --vendor                               only the vendor protocol's rows (links-vendor.ts): real
 *                                          firmware to a simulated FRC by the fs transfer, our host
 *                                          (1024-byte blocks) against the vendor tool's 64-byte
 *                                          stop-and-wait; they also follow the coded runs above
 *   npx tsx bench/links.ts --legacy        1 MiB of random bytes on every link against the vendor's
 *                                          old tool (64-byte blocks, stop-and-wait); --size, --only
 */
import { parseArgs } from 'node:util';
import { makeFirmwareImage } from '../domain/files/firmware-image';
import { identify } from '../main/devices/operations/identify';
import { LEGACY_BLOCK_SIZE } from '../protocol/constants';
import { codedRuns } from './links-coded';
import { vendorRuns } from './links-vendor';
import { ble, serial, udp, type LinkCase } from './link-cases';
import { LinksRig, timedUpload } from './links-rig';

const CASES: LinkCase[] = [serial(115200), serial(921600), ble(23), ble(247), udp];

interface Measurement {
  /** Payload bytes per second. */
  rate: number;
  /** The wire model's rate host to device, bytes per second. */
  wireRate: number;
  blockSize: number;
  window: number;
  retransmissions: number;
}

async function measure(rig: LinksRig, linkCase: LinkCase, size: number, legacy: boolean): Promise<Measurement> {
  const bench = await rig.start(linkCase, { maxImageSize: 16 * 1024 * 1024 });
  try {
    const image = makeFirmwareImage(bench.deviceType, '9.9.9', size - 64);
    const signedManifest = rig.sign(image);
    await identify(bench.session);
    const upload = await timedUpload(
      bench,
      image,
      {
        version: '9.9.9',
        deviceType: bench.deviceType,
        signedManifest,
        // Random bytes do not compress; the legacy table is about blocks and windows.
        coding: 'identity',
        ...(legacy ? { blockSize: LEGACY_BLOCK_SIZE, window: 1 } : {}),
      },
      linkCase.name,
    );
    return {
      rate: upload.rate,
      wireRate: upload.wireRate,
      blockSize: upload.result.blockSize,
      window: upload.result.window,
      retransmissions: upload.retransmissions,
    };
  } finally {
    await bench.stop();
  }
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);
const kib = (bytesPerSecond: number) => `${fmt(bytesPerSecond / 1024, 1)} KiB/s`;

async function legacyTable(values: { size?: string; only?: string }): Promise<void> {
  const size = values.size === undefined ? 1024 * 1024 : Number(values.size);
  const cases = CASES.filter(
    (c) => values.only === undefined || c.name.toLowerCase().includes(values.only.toLowerCase()),
  );
  const rig = await LinksRig.create('bench-links-');
  console.log(`Firmware upload of ${size} bytes; ratio = payload rate / wire model rate (host to device).`);
  console.log('| link | wire model | ours: block × window | ours | ratio | 64 B stop-and-wait | ratio | speed-up |');
  console.log('|---|---|---|---|---|---|---|---|');
  try {
    for (const linkCase of cases) {
      const ours = await measure(rig, linkCase, size, false);
      const baseline = await measure(rig, linkCase, size, true);
      console.log(
        `| ${linkCase.name} | ${kib(ours.wireRate)} | ${ours.blockSize} × ${ours.window} | ${kib(ours.rate)} | ${fmt(ours.rate / ours.wireRate)} | ` +
          `${kib(baseline.rate)} | ${fmt(baseline.rate / baseline.wireRate)} | ${fmt(ours.rate / baseline.rate, 1)}× |` +
          (ours.retransmissions + baseline.retransmissions > 0
            ? ` (retransmissions: ${ours.retransmissions} / ${baseline.retransmissions})`
            : ''),
      );
    }
  } finally {
    await rig.dispose();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      size: { type: 'string' },
      only: { type: 'string' },
      json: { type: 'boolean' },
      legacy: { type: 'boolean' },
      zlib: { type: 'boolean' },
      identify: { type: 'boolean' },
      'full-announce': { type: 'boolean' },
      vendor: { type: 'boolean' },
    },
  });
  if (values.legacy === true) return legacyTable(values);
  if (values.vendor === true) {
    await vendorRuns({ json: values.json === true, only: values.only });
    return;
  }
  if (values.identify === true && values['full-announce'] === true) {
    // The upload that asks /info itself announces as that reading says: the two cannot be combined.
    throw new Error(
      '--full-announce applies to the reading the upload reuses; leave out --identify, or --full-announce.',
    );
  }
  await codedRuns({
    json: values.json === true,
    only: values.only,
    zlib: values.zlib === true,
    identify: values.identify === true,
    fullAnnounce: values['full-announce'] === true,
  });
  // The vendor protocol's rows: our host against the vendor tool's way on the same simulated device.
  await vendorRuns({ json: values.json === true, only: values.only });
}

await main();
