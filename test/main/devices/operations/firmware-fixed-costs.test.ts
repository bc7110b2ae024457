import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeCbor, encodeCbor } from '../../../../domain/files/cbor';
import type { PrecodedStream } from '../../../../domain/files/content-coding';
import { SerialLink } from '../../../../main/devices/links/serial-link';
import { zopfliDeflate } from '../../../../main/engine/cache/zopfli-deflate';
import { uploadFirmware } from '../../../../main/devices/operations/firmware';
import { identify } from '../../../../main/devices/operations/identify';
import { DeviceSession } from '../../../../main/devices/session';
import { decodeMessage, uriPathOf } from '../../../../protocol/coap/codec';
import { CODE } from '../../../../protocol/coap/parameters';
import type { SimulatedDeviceOptions } from '../../../../simulator';
import { generateReleaseKeyPair } from '../../../../domain/files/firmware-release-key';
import { signedManifestFor } from '../../../fixtures/release-key';
import { firmwareImage, startDevice, uniqueSerial, useDeviceBench } from '../helpers/simulated';

const bench = useDeviceBench('firmware-fixed-costs');
const hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function attach(options: Partial<SimulatedDeviceOptions> = {}) {
  const device = await startDevice(bench.dir, { serialNumber: uniqueSerial('EPC'), ...options });
  const session = await DeviceSession.open(new SerialLink({ path: device.descriptor.path!, baudRate: 921600 }), {
    reconnectTimeoutMs: 30_000,
  });
  bench.keep(device, session);
  return { device, session };
}

/** The requests the host sends from now on, decoded: path, method and payload. */
function recordRequests(session: DeviceSession) {
  const link = session.engine.link;
  const send = link.send;
  const sent: { path: string; code: string; payload: Uint8Array }[] = [];
  link.send = (message, hint) => {
    const decoded = decodeMessage(message);
    // Requests only: class 0, not the empty message (ACKs).
    if (decoded.code.startsWith('0.') && decoded.code !== CODE.EMPTY)
      sent.push({ path: uriPathOf(decoded), code: decoded.code, payload: decoded.payload });
    send.call(link, message, hint);
  };
  return sent;
}

/** Sends and announce answers in the order they happen: whether blocks went before the announce was answered. */
function recordOrder(session: DeviceSession) {
  const events: string[] = [];
  const link = session.engine.link;
  const send = link.send;
  link.send = (message, hint) => {
    const decoded = decodeMessage(message);
    if (decoded.code.startsWith('0.') && decoded.code !== CODE.EMPTY) events.push(`send ${uriPathOf(decoded)}`);
    send.call(link, message, hint);
  };
  const engine = session.engine;
  const request = engine.request.bind(engine);
  engine.request = async (options) => {
    const response = await request(options);
    if (options.path === 'fw') events.push('answer fw');
    return response;
  };
  return events;
}

/** An image that compresses like code: a fixture, not a figure. */
function codeLike(version: string): Uint8Array {
  const image = firmwareImage(version, 6000);
  for (let i = 64; i < image.length; i++) image[i] = [0x2d, 0xe9, 0x00, i % 13][i % 4]!;
  return image;
}

const announceOf = (sent: { path: string; code: string; payload: Uint8Array }[]) => {
  const announces = sent.filter((r) => r.path === 'fw' && r.code === CODE.POST);
  expect(announces).toHaveLength(1);
  return decodeCbor(announces[0]!.payload) as Record<string, unknown>;
};

describe('fixed costs of a firmware upload', () => {
  it("sends the short announce to a device that reads the rest from the manifest, and reuses the caller's /info reading", async () => {
    const { device, session } = await attach();
    const info = await identify(session);
    expect(info.manifestAnnounce).toBe(true);
    const sent = recordRequests(session);
    const image = codeLike('4.0.0');
    await uploadFirmware(session, image, {
      signedManifest: signedManifestFor(image),
      version: '4.0.0',
      deviceType: 'EPC',
      info,
    });
    expect(sent.filter((r) => r.path === 'info')).toEqual([]);
    expect(Object.keys(announceOf(sent)).sort()).toEqual(['coding', 'signedManifest']);
    expect(device.state().upload).toMatchObject({ state: 'received', sha256: hex(image), version: '4.0.0' });
  });

  it('asks /info itself when given none, or one of another boot of the device', async () => {
    const { session } = await attach();
    const info = await identify(session);
    const sent = recordRequests(session);
    const image = codeLike('4.0.1');
    await uploadFirmware(session, image, {
      signedManifest: signedManifestFor(image),
      version: '4.0.1',
      deviceType: 'EPC',
      info: { ...info, bootId: 'another boot' },
    });
    expect(sent.filter((r) => r.path === 'info')).toHaveLength(1);
  });

  it('sends the full announce to a device from before (no manifestAnnounce), which takes the image as always', async () => {
    const { device, session } = await attach({ codings: [] });
    const info = await identify(session);
    expect(info.manifestAnnounce).toBeUndefined();
    const sent = recordRequests(session);
    const image = codeLike('4.0.2');
    await uploadFirmware(session, image, {
      signedManifest: signedManifestFor(image),
      version: '4.0.2',
      deviceType: 'EPC',
      info,
    });
    expect(Object.keys(announceOf(sent)).sort()).toEqual(['deviceType', 'sha256', 'signedManifest', 'size', 'version']);
    expect(device.state().upload).toMatchObject({ state: 'received', sha256: hex(image) });
  });

  it('a short announce whose manifest is not one is refused (FW_BAD_SIGNATURE); a device from before refuses the short form as a bad request', async () => {
    const current = await attach();
    const refused = await current.session.engine
      .request({
        method: CODE.POST,
        path: 'fw',
        payload: encodeCbor({ signedManifest: new Uint8Array(40) }),
        step: 'short announce',
      })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'FW_BAD_SIGNATURE' });

    const old = await attach({ codings: [] });
    const info = await identify(old.session);
    const image = codeLike('4.0.3');
    // As if a stale or wrong reading said it takes the short form: the device says no, nothing is staged.
    const upload = uploadFirmware(old.session, image, {
      signedManifest: signedManifestFor(image),
      version: '4.0.3',
      deviceType: 'EPC',
      info: { ...info, manifestAnnounce: true },
    });
    await expect(upload).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(old.device.state().upload ?? null).toBeNull();
  });

  it('sends the stream made ahead of time to a device whose window holds it, and deflates within a smaller window with zlib', async () => {
    const image = codeLike('4.0.4');
    const precoded: PrecodedStream = (await zopfliDeflate(image))!;
    const wide = await attach();
    const wideResult = await uploadFirmware(wide.session, image, {
      signedManifest: signedManifestFor(image),
      version: '4.0.4',
      deviceType: 'EPC',
      deflated: precoded,
    });
    expect(wideResult).toMatchObject({ coding: 'deflate', wireBytes: precoded.bytes.length });
    expect(wide.device.state().upload).toMatchObject({
      state: 'received',
      sha256: hex(image),
      coding: { windowBits: 15 },
    });

    const narrow = await attach({ codings: [{ name: 'deflate', windowBits: 10 }] });
    const sent = recordRequests(narrow.session);
    const narrowResult = await uploadFirmware(narrow.session, image, {
      signedManifest: signedManifestFor(image),
      version: '4.0.4',
      deviceType: 'EPC',
      deflated: precoded,
    });
    expect(narrowResult.coding).toBe('deflate');
    expect(narrowResult.wireBytes).not.toBe(precoded.bytes.length);
    expect(announceOf(sent).coding).toMatchObject({ name: 'deflate', windowBits: 10 });
    expect(narrow.device.state().upload).toMatchObject({ state: 'received', sha256: hex(image) });
  });

  it('sends the first blocks behind the announce, before its answer, to a device that handles them after it', async () => {
    const { device, session } = await attach();
    const info = await identify(session);
    expect(info).toMatchObject({ blocksBehindAnnounce: true, state: 'idle' });
    const events = recordOrder(session);
    const image = codeLike('4.0.5');
    const figures: { bytes: number; announced: boolean }[] = [];
    const onProgress = (progress: { bytes: number; announced?: boolean }) =>
      figures.push({ bytes: progress.bytes, announced: progress.announced === true });
    const result = await uploadFirmware(session, image, {
      signedManifest: signedManifestFor(image),
      version: '4.0.5',
      deviceType: 'EPC',
      info,
      onProgress,
    });
    expect(events.indexOf('send fw/data')).toBeGreaterThan(events.indexOf('send fw'));
    expect(events.indexOf('send fw/data')).toBeLessThan(events.indexOf('answer fw'));
    expect(result.announcedOffsets).toEqual([0]);
    // A fresh start, said first: the blocks acknowledged behind it are not a resume.
    expect(figures.filter((f) => f.announced)).toEqual([{ bytes: 0, announced: true }]);
    expect(figures[0]).toEqual({ bytes: 0, announced: true });
    expect(figures.slice(1).some((f) => f.bytes > 0)).toBe(true);
    expect(device.state().upload).toMatchObject({ state: 'received', sha256: hex(image) });
  });

  it('blocks behind a refused announce change nothing on the device', async () => {
    const { device, session } = await attach();
    const info = await identify(session);
    const image = codeLike('4.0.6');
    const untrusted = signedManifestFor(image, { key: generateReleaseKeyPair() });
    await expect(
      uploadFirmware(session, image, { signedManifest: untrusted, version: '4.0.6', deviceType: 'EPC', info }),
    ).rejects.toMatchObject({ code: 'FW_UNTRUSTED_KEY' });
    expect(device.state().upload ?? null).toBeNull();
    expect((await identify(session)).state).toBe('idle');
  });

  it("waits for the announce's answer before any block to a device from before", async () => {
    const { session } = await attach({ codings: [] });
    const info = await identify(session);
    const events = recordOrder(session);
    const image = codeLike('4.0.7');
    await uploadFirmware(session, image, {
      signedManifest: signedManifestFor(image),
      version: '4.0.7',
      deviceType: 'EPC',
      info,
    });
    expect(events.indexOf('send fw/data')).toBeGreaterThan(events.indexOf('answer fw'));
  });
});
