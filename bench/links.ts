/**
 * Device link throughput: image bytes per second of a firmware upload divided by the wire model's
 * rate, against simulated devices (pty, simulated BLE through noble, UDP).
 *
 *   npx tsx bench/links.ts --json          real firmware (bench/real-firmware.ts) on serial 115200 and
 *                                          921600, BLE MTU 247 and UDP, identity, deflate and delta:
 *                                          one JSON object per line, then the decoder's peak memory
 *   npx tsx bench/links.ts                 the same as a table
 *   npx tsx bench/links.ts --legacy        1 MiB of random bytes on every link against the vendor's
 *                                          old tool (64-byte blocks, stop-and-wait); --size, --only
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateSigningKeyPair } from '../domain/files/config-file-signature';
import { signFirmwareImage } from '../domain/files/firmware-bundle';
import { makeFirmwareImage } from '../domain/files/firmware-image';
import { generateReleaseKeyPair } from '../domain/files/firmware-release-key';
import { uploadFirmware } from '../main/devices/operations/firmware';
import { identify } from '../main/devices/operations/identify';
import { DeviceSession } from '../main/devices/session';
import { LEGACY_BLOCK_SIZE } from '../protocol/constants';
import { codedRuns } from './links-coded';
import { startSimulatedDevice } from '../simulator';
import { ble, serial, udp, type LinkCase } from './link-cases';

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

/** Signs the bench's images; its devices trust nothing else. */
const releaseKey = generateReleaseKeyPair();

async function measure(linkCase: LinkCase, size: number, legacy: boolean, scratch: string, publicKeyPem: string, run: number): Promise<Measurement> {
  const deviceType = linkCase.device.deviceType ?? 'EPC';
  const serialNumber = `BENCH${run.toString().padStart(3, '0')}`;
  const device = await startSimulatedDevice({
    deviceType,
    serialNumber,
    link: 'pty',
    stateDir: join(scratch, serialNumber),
    ptyDir: join(scratch, 'sim'),
    publicKeyPem,
    releaseKeysPem: [releaseKey.publicKeyPem],
    maxImageSize: 16 * 1024 * 1024,
    ...linkCase.device,
  });
  const session = await DeviceSession.open(await linkCase.connect(device));
  try {
    const image = makeFirmwareImage(deviceType, '9.9.9', size - 64);
    await identify(session);
    const started = performance.now();
    const result = await uploadFirmware(session, image, {
      version: '9.9.9',
      deviceType,
      signedManifest: signFirmwareImage(image, { releaseKeyPem: releaseKey.privateKeyPem }),
      // Random bytes do not compress; the legacy table is about blocks and windows.
      coding: 'identity',
      ...(legacy ? { blockSize: LEGACY_BLOCK_SIZE, window: 1 } : {}),
    });
    const seconds = (performance.now() - started) / 1000;
    if (device.state().upload?.state !== 'received') throw new Error(`${linkCase.name}: the device did not receive the image`);
    return {
      rate: image.length / seconds,
      wireRate: device.wire.inbound.bytesPerSecond,
      blockSize: result.blockSize,
      window: result.window,
      retransmissions: session.engine.stats.retransmissions,
    };
  } finally {
    await session.close().catch(() => undefined);
    await device.stop();
  }
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);
const kib = (bytesPerSecond: number) => `${fmt(bytesPerSecond / 1024, 1)} KiB/s`;

async function legacyTable(values: { size?: string; only?: string }): Promise<void> {
  const size = values.size === undefined ? 1024 * 1024 : Number(values.size);
  const cases = CASES.filter((c) => values.only === undefined || c.name.toLowerCase().includes(values.only.toLowerCase()));
  const scratch = await mkdtemp(join(tmpdir(), 'bench-links-'));
  const { publicKeyPem } = generateSigningKeyPair();
  let run = 0;
  console.log(`Firmware upload of ${size} bytes; ratio = payload rate / wire model rate (host to device).`);
  console.log('| link | wire model | ours: block × window | ours | ratio | 64 B stop-and-wait | ratio | speed-up |');
  console.log('|---|---|---|---|---|---|---|---|');
  try {
    for (const linkCase of cases) {
      const ours = await measure(linkCase, size, false, scratch, publicKeyPem, run++);
      const baseline = await measure(linkCase, size, true, scratch, publicKeyPem, run++);
      console.log(
        `| ${linkCase.name} | ${kib(ours.wireRate)} | ${ours.blockSize} × ${ours.window} | ${kib(ours.rate)} | ${fmt(ours.rate / ours.wireRate)} | ` +
          `${kib(baseline.rate)} | ${fmt(baseline.rate / baseline.wireRate)} | ${fmt(ours.rate / baseline.rate, 1)}× |` +
          (ours.retransmissions + baseline.retransmissions > 0 ? ` (retransmissions: ${ours.retransmissions} / ${baseline.retransmissions})` : ''),
      );
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { size: { type: 'string' }, only: { type: 'string' }, json: { type: 'boolean' }, legacy: { type: 'boolean' } } });
  if (values.legacy === true) return legacyTable(values);
  return codedRuns({ json: values.json === true, only: values.only });
}

await main();
