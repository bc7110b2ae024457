import {
  encodeEpcFirmwareBody,
  EPC_FIRMWARE_MAX_SIZE,
  VENDOR_CONTENT_FORMAT,
  VENDOR_RESOURCE,
} from '../../../protocol/vendor';
import { contentFormatOption } from '../../../protocol/coap/codec';
import { CODE } from '../../../protocol/coap/parameters';
import { MAX_BLOCK_SIZE } from '../../../protocol/constants';
import { uploadBlock1 } from '../coap/block1';
import { observe } from '../coap/observe';
import { DeviceVerificationError } from '../errors';
import type { DeviceSession } from '../session';
import { textOf } from './requests';

/**
 * The EPC's firmware update (vendor spec §6.3, §7.2): one POST to fl/fw/epc whose CBOR body
 * {length, data, sha256} goes in Block1 blocks of 1024 bytes (CF 60 on every block, as aiocoap
 * sends it), a text answer, and the status on fl/fw/epc/status observed to the end.
 */

export interface EpcFirmwareOptions {
  signal?: AbortSignal;
  /** Body bytes acknowledged so far, and the body's length. */
  onProgress?: (acknowledged: number, total: number) => void;
  /** Each status line the device reports. */
  onStatus?: (line: string) => void;
  /** A status silent this long is left: the version read back after the restart decides. Default 30 s. */
  statusIdleMs?: number;
}

export interface EpcFirmwareResult {
  /** What the device answered the POST with. */
  reply: string;
  /** The status lines observed, in order. */
  statusLines: string[];
}

/** Status words that end an update badly. The vendor's words are not public: docs/vendor-devices.md. */
const FAILED = /\b(fail|failed|failure|error|invalid|rejected|abort|aborted)\b/i;
/** Status words that end it well (the device installs, then restarts). */
const FINISHED = /\b(done|complete|completed|success|successful|installed|finished|reboot|rebooting)\b/i;

export async function updateEpcFirmware(
  session: DeviceSession,
  pkg: Uint8Array,
  options: EpcFirmwareOptions = {},
): Promise<EpcFirmwareResult> {
  if (pkg.length > EPC_FIRMWARE_MAX_SIZE) {
    throw new RangeError(
      `The EPC package is ${pkg.length} bytes; the EPC takes at most ${EPC_FIRMWARE_MAX_SIZE} (200 MiB).`,
    );
  }
  const body = encodeEpcFirmwareBody(pkg);
  const { response } = await uploadBlock1(session.engine, {
    path: VENDOR_RESOURCE.epcFirmware,
    method: CODE.POST,
    data: body,
    blockSize: MAX_BLOCK_SIZE,
    window: 1,
    what: 'firmware package',
    options: [contentFormatOption(VENDOR_CONTENT_FORMAT.cbor)],
    signal: options.signal,
    onProgress: (acknowledged) => options.onProgress?.(acknowledged, body.length),
  });
  const reply = textOf(response).trim();
  if (reply) options.onStatus?.(reply);
  const statusLines = await followStatus(session, options);
  return { reply, statusLines };
}

/** Observes fl/fw/epc/status until the device ends it, says it finished or failed, or falls silent. */
async function followStatus(session: DeviceSession, options: EpcFirmwareOptions): Promise<string[]> {
  const step = 'firmware status';
  const lines: string[] = [];
  const idle = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, idle.signal]) : idle.signal;
  let timer: NodeJS.Timeout | undefined;
  const quiet = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(), options.statusIdleMs ?? 30_000);
  };
  quiet();
  let observation: Awaited<ReturnType<typeof observe>> | undefined;
  try {
    observation = await observe(session.engine, { path: VENDOR_RESOURCE.epcFirmwareStatus, step, signal });
    const iterator = observation[Symbol.asyncIterator]();
    for (;;) {
      const next = await Promise.race([
        iterator.next(),
        new Promise<IteratorResult<never>>((resolve) =>
          signal.addEventListener('abort', () => resolve({ done: true, value: undefined as never }), { once: true }),
        ),
      ]);
      if (next.done) break;
      quiet();
      const line = textOf(next.value).trim();
      if (line === '' || line === lines.at(-1)) continue;
      lines.push(line);
      options.onStatus?.(line);
      if (FAILED.test(line))
        throw new DeviceVerificationError(
          'FW_APPLY_FAILED',
          session.context(step),
          `the EPC reports the update failed: "${line}"`,
        );
      if (FINISHED.test(line) || !next.value.code.startsWith('2.')) break;
    }
  } catch (error) {
    // A restart ends the observation without a word, and so does a status that is not served:
    // the version read back decides. A failure the device stated is the job's failure.
    if (error instanceof DeviceVerificationError) throw error;
    options.signal?.throwIfAborted();
  } finally {
    clearTimeout(timer);
    await observation?.cancel().catch(() => undefined);
  }
  return lines;
}
