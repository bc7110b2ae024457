import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeCbor, encodeCbor } from '../../domain/files/cbor';
import { CONFIG_FILE_FORMAT_LAYOUT2, type ConfigFileContent } from '../../domain/files/config-file';
import { createOrganizationKey } from '../../domain/files/config-file-signature';
import { orgKeyCertificateToPem } from '../../domain/files/secure-config-pem';
import { CODE } from '../../main/devices/coap';
import { TEST_ORG_ID } from '../fixtures/config-files';
import { configContent, serviceKeys, signedConfigFile, uniqueSerial, useScratchDir } from './helpers/fixtures';
import { errorCode } from './helpers/raw-client';
import { startSerialSession, type SerialSession } from './helpers/serial-session';

/**
 * A simulated device of ours over a real pty takes configuration files of both layouts: layout 3
 * (the vendor's secure configuration map, what the service serves now) and layout 2 (what devices
 * in the field hold and technicians saved), with the same checks and the same replay rule across
 * them.
 */

const scratch = useScratchDir('config-layouts');

async function withSession(test: (session: SerialSession) => Promise<void>): Promise<void> {
  const session = await startSerialSession(scratch.dir, { serialNumber: uniqueSerial('EPC') });
  try {
    await test(session);
  } finally {
    await session.close();
  }
}

function layout2(content: ConfigFileContent): Uint8Array {
  return signedConfigFile({ ...content, format: CONFIG_FILE_FORMAT_LAYOUT2 });
}

async function send(session: SerialSession, file: Uint8Array) {
  const { final } = await session.client.uploadBlock1('config', file, { blockSize: 256, window: 2, size1: true });
  return { code: final.code, error: errorCode(final), body: decodeCbor(final.payload) as Record<string, unknown> };
}

/** Sends a file the device must take and waits until it is back from the restart into it. */
async function apply(session: SerialSession, file: Uint8Array, syncId: string): Promise<void> {
  expect(await send(session, file)).toMatchObject({ code: CODE.CHANGED, body: { syncId } });
  await session.reconnect();
  expect(await session.client.getCbor('config')).toMatchObject({ syncId, blank: false });
}

type Top = Record<string, unknown>;
const rewritten = (file: Uint8Array, change: (top: Top) => Top): Uint8Array =>
  encodeCbor(change(decodeCbor(file) as Top));

describe('configuration file layouts on a simulated device over a pty', () => {
  it('applies a layout-2 file, then a newer layout-3 one, and refuses the older layout-2 file again', () =>
    withSession(async (session) => {
      const serial = session.device.descriptor.serialNumber;
      const configPath = join(scratch.dir, serial, 'config.cbor');
      const old = configContent(serial, 'EPC');
      const oldFile = layout2(old);
      expect('format' in (decodeCbor(oldFile) as Top)).toBe(true);
      await apply(session, oldFile, old.syncId);
      expect(Buffer.compare(await readFile(configPath), oldFile)).toBe(0);
      expect(session.device.state().claim).toMatchObject({ orgId: TEST_ORG_ID });

      const next = configContent(serial, 'EPC');
      const nextFile = signedConfigFile(next);
      expect('config-data' in (decodeCbor(nextFile) as Top)).toBe(true);
      await apply(session, nextFile, next.syncId);
      expect(session.device.state().config).toMatchObject({ syncId: next.syncId, sequence: next.sequence });
      // The claim taken from a layout-2 file holds for layout-3 files of the same organization key.
      expect(session.device.state().claim).toMatchObject({ orgId: TEST_ORG_ID });

      const replay = await send(session, oldFile);
      expect([replay.code, replay.error]).toEqual(['4.09', 'CONFIG_SUPERSEDED']);
      expect(Buffer.compare(await readFile(configPath), nextFile)).toBe(0);

      // The same file again: taken as unchanged, no restart.
      const bootId = session.device.state().bootId;
      expect(await send(session, nextFile)).toMatchObject({
        code: CODE.CHANGED,
        body: { syncId: next.syncId, unchanged: true },
      });
      expect(session.device.state().bootId).toBe(bootId);
    }));

  it('refuses a layout-3 file with config-data changed, with a signature that does not verify, or with another organization’s fso7-3', () =>
    withSession(async (session) => {
      const serial = session.device.descriptor.serialNumber;
      const file = signedConfigFile(configContent(serial, 'EPC'));
      const flipped = rewritten(file, (top) => {
        const data = new Uint8Array(top['config-data'] as Uint8Array);
        data[10]! ^= 0xff;
        return { ...top, 'config-data': data };
      });
      const badSignature = rewritten(file, (top) => ({ ...top, 's-component': top['r-component'] as string }));
      const other = createOrganizationKey('other-org', serviceKeys.privateKeyPem);
      const swapped = rewritten(file, (top) => ({ ...top, 'fso7-3': orgKeyCertificateToPem(other.certificate) }));
      const cases: [Uint8Array, string, string][] = [
        [flipped, '4.00', 'CONFIG_CHECKSUM_MISMATCH'],
        [badSignature, '4.03', 'CONFIG_BAD_SIGNATURE'],
        [swapped, '4.03', 'CONFIG_BAD_SIGNATURE'],
      ];
      for (const [bad, code, error] of cases) {
        const answer = await send(session, bad);
        expect([answer.code, answer.error], error).toEqual([code, error]);
      }
      expect(session.device.state().config).toBeNull();
      expect(session.device.state().claim).toBeNull();
    }));
});
