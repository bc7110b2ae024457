/**
 * The vendor-protocol rows of bench/links.ts: real firmware (bench/real-firmware.ts) sent to a
 * simulated FRC-family device (plain SLIP on a pty) by the fs transfer, our host's way (block 0 asks
 * for 1024-byte blocks, the device's size followed) against the vendor tool's way (64-byte blocks,
 * stop-and-wait), on the same device and link. One JSON object per row, or a table.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSigningKeyPair } from '../domain/files/config-file-signature';
import { DeviceSession } from '../main/devices/session';
import { createVendorLink, identifyVendor, uploadFile } from '../main/devices/vendor';
import { LEGACY_BLOCK_SIZE, MAX_BLOCK_SIZE } from '../protocol/constants';
import { FRC_FILE } from '../protocol/vendor';
import { startSimulatedDevice } from '../simulator';
import { loadRealImages } from './real-firmware';

export interface VendorRow {
  link: string;
  /** 'provisioner host' or 'vendor tool way'. */
  way: string;
  image: string;
  bytes: number;
  blockSize: number;
  seconds: number;
  /** Image bytes / s / the wire model's rate host to device. */
  ratio: number;
  retransmissions: number;
  /** On our row: our rate / the vendor tool's rate on the same device. */
  speedUp?: number;
}

const BAUD_RATES = [115200, 921600];

export async function vendorRuns(options: { json: boolean; only?: string }): Promise<VendorRow[]> {
  const { images } = loadRealImages();
  const scratch = await mkdtemp(join(tmpdir(), 'bench-links-vendor-'));
  const rows: VendorRow[] = [];
  const emit = (row: VendorRow) => {
    rows.push(row);
    if (options.json) console.log(JSON.stringify(row));
    else
      console.log(
        `| ${row.link} | ${row.way} | ${row.image} | ${row.bytes} | ${row.blockSize} | ${row.seconds.toFixed(2)} | ${row.ratio.toFixed(3)} | ${row.speedUp === undefined ? '' : `${row.speedUp.toFixed(1)}×`} |`,
      );
  };
  if (!options.json) {
    console.log('Vendor protocol (FRC, fs transfer): ratio = image bytes / s / wire model rate.');
    console.log('| link | way | image | bytes | block | s | ratio | speed-up |');
    console.log('|---|---|---|---|---|---|---|---|');
  }
  try {
    for (const baudRate of BAUD_RATES) {
      const link = `vendor FRC serial ${baudRate}`;
      if (options.only !== undefined && !link.toLowerCase().includes(options.only.toLowerCase())) continue;
      const serialNumber = `VBENCH${baudRate}`.slice(0, 8);
      const device = await startSimulatedDevice({
        protocol: 'vendor',
        deviceType: 'SRCP',
        serialNumber,
        link: 'pty',
        baudRate,
        stateDir: join(scratch, `${baudRate}`),
        ptyDir: join(scratch, 'sim'),
        publicKeyPem: generateSigningKeyPair().publicKeyPem,
        releaseKeysPem: [],
      });
      const host = createVendorLink({ kind: 'serial', path: device.descriptor.path!, baudRate });
      await host.open();
      const session = new DeviceSession(host);
      try {
        await identifyVendor(session, 'FRC');
        const wireRate = device.wire.inbound.bytesPerSecond;
        for (const real of images) {
          // Two names, so that the second upload is not skipped as a file the device already holds.
          const timed = async (name: string, blockSize: number) => {
            const retransmitted = session.engine.stats.retransmissions;
            const started = performance.now();
            const result = await uploadFile(session, name, real.bytes, { blockSize });
            const seconds = (performance.now() - started) / 1000;
            return {
              seconds,
              blockSize: result.blockSize,
              rate: real.bytes.length / seconds,
              retransmissions: session.engine.stats.retransmissions - retransmitted,
            };
          };
          const ours = await timed(FRC_FILE.appImage, MAX_BLOCK_SIZE);
          const tool = await timed(FRC_FILE.ismRadioImage, LEGACY_BLOCK_SIZE);
          const base = { link, image: real.name, bytes: real.bytes.length };
          emit({
            ...base,
            way: 'provisioner host',
            blockSize: ours.blockSize,
            seconds: ours.seconds,
            ratio: ours.rate / wireRate,
            retransmissions: ours.retransmissions,
            speedUp: ours.rate / tool.rate,
          });
          emit({
            ...base,
            way: 'vendor tool way',
            blockSize: tool.blockSize,
            seconds: tool.seconds,
            ratio: tool.rate / wireRate,
            retransmissions: tool.retransmissions,
          });
        }
      } finally {
        await session.close().catch(() => undefined);
        await device.stop();
      }
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return rows;
}
