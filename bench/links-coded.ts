/**
 * The coded-transfer runs of bench/links.ts: every real image (bench/real-firmware.ts) on every
 * link with identity and deflate, and each delta pair with a patch from the image the device runs.
 * ratio = image bytes ÷ seconds ÷ the wire model's rate host to device, so a ratio above 1 is an
 * upload faster than the wire could carry the image's own bytes.
 *
 * As a firmware job does, and before the clock starts: the device is identified (a job does it when
 * it opens the device, and the upload reuses that reading), and the image and the patch are
 * deflated with zopfli (the firmware cache does it once, when they enter it). The options put back
 * what was before, step by step: `zlib` deflates at upload, `identify` lets the upload ask GET /info
 * itself, `fullAnnounce` sends the full announce.
 */
import { createHash } from 'node:crypto';
import type { ContentCoding } from '../domain/files/content-coding';
import { createFirmwarePatch } from '../domain/files/firmware-patch';
import { zopfliDeflate } from '../main/engine/cache/zopfli-deflate';
import { applyFirmware, uploadFirmware } from '../main/devices/operations/firmware';
import { identify } from '../main/devices/operations/identify';
import type { FirmwarePatchOffer } from '../main/devices/operations/firmware-coding';
import { ble, serial, udp, type LinkCase } from './link-cases';
import { LinksRig, timedUpload } from './links-rig';
import { benchCacheDir, loadRealImages, wrap, type RealImage } from './real-firmware';

export interface CodedRow {
  link: string;
  coding: ContentCoding;
  image: string;
  /** The image's bytes (64-byte header included). */
  bytes: number;
  ratio: number;
  wireBytes: number;
  seconds: number;
  package: string;
  version: string;
  /** delta: the image the device ran. */
  base?: string;
  /** CoAP retransmissions during this upload: a row with any is slowed by a timeout, not by its coding. */
  retransmissions: number;
  /** Bytes the host put on the line during the upload, framing included (links-rig.ts). */
  lineBytes: number;
  /** bytes ÷ lineBytes: the ratio if the line never waited for a round trip or for processing. */
  ceiling: number;
  /** What the run put back from before (codedRuns' options), e.g. "zlib, identify, full announce"; "" for none. */
  variant: string;
}

/** `large`: the link also gets the large image (real-firmware.ts), fast enough to carry it in about a second. */
const LINKS: { linkCase: LinkCase; large: boolean }[] = [
  { linkCase: serial(115200), large: false },
  { linkCase: serial(921600), large: false },
  { linkCase: ble(247), large: false },
  { linkCase: udp, large: true },
];

const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest());

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export interface CodedRunOptions {
  json: boolean;
  only?: string;
  zlib?: boolean;
  identify?: boolean;
  fullAnnounce?: boolean;
}

export async function codedRuns(options: CodedRunOptions): Promise<void> {
  const { images, largeImages, pairs } = loadRealImages();
  const links = LINKS.filter(
    ({ linkCase }) => options.only === undefined || linkCase.name.toLowerCase().includes(options.only.toLowerCase()),
  );
  const rig = await LinksRig.create('bench-links-coded-');
  const variant = [options.zlib && 'zlib', options.identify && 'identify', options.fullAnnounce && 'full announce']
    .filter(Boolean)
    .join(', ');
  const rows: CodedRow[] = [];
  let decoderPeak = 0;
  const emit = (row: CodedRow) => {
    rows.push(row);
    if (options.json) console.log(JSON.stringify(row));
    else
      console.log(
        `| ${row.link} | ${row.coding} | ${row.image}${row.base ? ` (from ${row.base})` : ''} | ${row.bytes} | ${row.wireBytes} | ${row.seconds.toFixed(2)} | ${row.ratio.toFixed(2)} |`,
      );
  };
  if (!options.json) {
    console.log(`Real firmware from ${benchCacheDir()}; ratio = image bytes / s / wire model rate.`);
    console.log('| link | coding | image | bytes | wire bytes | s | ratio |');
    console.log('|---|---|---|---|---|---|---|');
  }
  let run = 0;
  try {
    for (const { linkCase, large } of links) {
      const bench = await rig.start(linkCase, { rebootMs: 100, applyMs: 50 });
      const { deviceType, session } = bench;
      run++;
      try {
        const measure = async (
          real: RealImage,
          image: Uint8Array,
          version: string,
          coding: ContentCoding,
          patches?: FirmwarePatchOffer[],
          base?: RealImage,
        ) => {
          const signedManifest = rig.sign(image);
          const deflated = coding === 'deflate' && options.zlib !== true ? await zopfliDeflate(image) : undefined;
          const read = await identify(session);
          const info =
            options.identify === true
              ? undefined
              : options.fullAnnounce === true
                ? { ...read, manifestAnnounce: undefined }
                : read;
          const upload = await timedUpload(
            bench,
            image,
            { version, deviceType, signedManifest, coding, patches, deflated, info },
            `${linkCase.name}, ${real.name}`,
          );
          const { result } = upload;
          if (result.coding !== coding)
            throw new Error(
              `${linkCase.name}: ${real.name} went as ${result.coding}, not ${coding} (${result.notes.join(' ')})`,
            );
          emit({
            link: linkCase.name,
            coding,
            image: real.name,
            bytes: image.length,
            ratio: upload.ratio,
            wireBytes: result.wireBytes,
            seconds: upload.seconds,
            package: real.package,
            version: real.version,
            ...(base ? { base: base.name } : {}),
            retransmissions: upload.retransmissions,
            lineBytes: upload.lineBytes,
            ceiling: upload.ceiling,
            variant,
          });
        };
        for (const real of large ? [...images, ...largeImages] : images) {
          for (const coding of ['identity', 'deflate'] as const) {
            const version = `${real.version}.${coding === 'identity' ? 1 : 2}.${run}`;
            await measure(real, wrap(real, deviceType, version), version, coding);
          }
        }
        for (const pair of pairs) {
          // The device must run the base: install it first (not measured).
          const baseVersion = `${pair.from.version}.base.${run}`;
          const base = wrap(pair.from, deviceType, baseVersion);
          await uploadFirmware(session, base, { version: baseVersion, deviceType, signedManifest: rig.sign(base) });
          await applyFirmware(session, { version: baseVersion });
          const version = `${pair.to.version}.delta.${run}`;
          const target = wrap(pair.to, deviceType, version);
          const patch = createFirmwarePatch(base, target, { baseSha256: sha256(base), targetSha256: sha256(target) });
          const deflated = options.zlib === true ? undefined : await zopfliDeflate(patch);
          const offer = {
            baseSha256: Buffer.from(sha256(base)).toString('hex'),
            patch,
            ...(deflated === undefined ? {} : { deflated }),
          };
          await measure(pair.to, target, version, 'delta', [offer], pair.from);
        }
        decoderPeak = Math.max(decoderPeak, bench.device.decoderPeakBytes());
      } finally {
        await bench.stop();
      }
    }
  } finally {
    await rig.dispose();
  }
  const peak = {
    decoderPeakBytes: decoderPeak,
    window: 2 ** 15,
    note: 'the simulated device decoder at its fullest: DEFLATE window, the block in hand, its output',
  };
  if (options.json) console.log(JSON.stringify(peak));
  else console.log(`\nDecoder peak memory: ${decoderPeak} bytes (window ${2 ** 15}).`);
  // Medians per link and coding, for docs/performance.md; on stderr in JSON mode.
  const say = options.json ? console.error : console.log;
  for (const link of new Set(rows.map((r) => r.link))) {
    const parts = (['identity', 'deflate', 'delta'] as const).map((coding) => {
      const chosen = rows.filter((r) => r.link === link && r.coding === coding);
      const ratios = chosen.map((r) => r.ratio);
      if (ratios.length === 0) return `${coding} -`;
      const ceiling = median(chosen.map((r) => r.ceiling)).toFixed(2);
      return `${coding} median ${median(ratios).toFixed(2)} (min ${Math.min(...ratios).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)}; line-bound ceiling median ${ceiling})`;
    });
    say(`${link}: ${parts.join('; ')}`);
  }
}
