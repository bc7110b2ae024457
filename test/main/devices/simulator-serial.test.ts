import { describe, expect, it } from 'vitest';
import { encodeCbor } from '../../../domain/files/cbor';
import { sha256 } from '../../../domain/files/config-file';
import { generateSigningKeyPair } from '../../../domain/files/config-file-signature';
import { FileFormatError } from '../../../domain/files/file-error';
import { contentFormatOption, uploadBlock1 } from '../../../main/devices/coap';
import { CODE } from '../../../protocol/coap/parameters';
import { DeviceError, DeviceTimeoutError, DeviceVerificationError } from '../../../main/devices/errors';
import { SerialLink } from '../../../main/devices/links/serial-link';
import {
  applyFirmware,
  observeFirmwareStatus,
  readFirmwareStatus,
  uploadFirmware,
  type UploadProgress,
} from '../../../main/devices/operations/firmware';
import { uploadConfiguration } from '../../../main/devices/operations/configuration';
import { identify } from '../../../main/devices/operations/identify';
import { reboot } from '../../../main/devices/operations/reboot';
import { DeviceSession } from '../../../main/devices/session';
import type { SimulatedDeviceOptions } from '../../../simulator';
import { configFile, firmwareImage, serviceKeys, startDevice, uniqueSerial, useDeviceBench } from './helpers/simulated';
import { signedManifestFor } from '../../fixtures/release-key';

const bench = useDeviceBench('serial');

async function attach(
  options: Partial<SimulatedDeviceOptions> = {},
  sessionOptions: { reconnectTimeoutMs?: number } = {},
) {
  const device = await startDevice(bench.dir, { serialNumber: uniqueSerial('EPC'), ...options });
  const link = new SerialLink({ path: device.descriptor.path!, baudRate: options.baudRate ?? 921600 });
  const session = await DeviceSession.open(link, { reconnectTimeoutMs: 30_000, ...sessionOptions });
  bench.keep(device, session);
  return { device, session, link };
}

describe('host operations against a simulated device over a pty', () => {
  it('identifies the device', async () => {
    const { device, session } = await attach();
    const info = await identify(session);
    expect(info).toMatchObject({
      serialNumber: device.descriptor.serialNumber,
      deviceType: 'EPC',
      firmwareVersion: '1.0.0',
      configSyncId: null,
      maxBlockSize: 1024,
    });
    expect(session.name).toBe(device.descriptor.serialNumber);
  });

  it('uploads firmware, applies it, reconnects after the reboot and reads the new version back', async () => {
    const { device, session } = await attach();
    const image = firmwareImage('2.0.0', 200 * 1024);
    const progress: UploadProgress[] = [];
    const result = await uploadFirmware(session, image, {
      signedManifest: signedManifestFor(image),
      version: '2.0.0',
      deviceType: 'EPC',
      onProgress: (p) => progress.push(p),
    });
    expect(result.announcedOffsets).toEqual([0]);
    expect(result.blockSize).toBe(1024);
    expect(result.window).toBe(4);
    expect(progress.at(-1)).toMatchObject({ bytes: image.length, total: image.length });
    expect(progress.map((p) => p.bytes)).toEqual(progress.map((p) => p.bytes).sort((a, b) => a - b));
    expect(progress.length).toBeGreaterThan(1);
    expect(device.state().upload).toMatchObject({ state: 'received', ackedOffset: image.length });
    const bootId = session.info!.bootId;
    const after = await applyFirmware(session, { version: '2.0.0' });
    expect(after.firmwareVersion).toBe('2.0.0');
    expect(after.bootId).not.toBe(bootId);
    expect(device.state().firmwareVersion).toBe('2.0.0');
  });

  it('applies a configuration signed by the service and reads its syncId back after the reboot', async () => {
    const { device, session } = await attach();
    const { file, syncId } = configFile(device.descriptor.serialNumber);
    const result = await uploadConfiguration(session, file, { publicKeyPem: serviceKeys.publicKeyPem });
    expect(result.syncId).toBe(syncId);
    expect(result.info.configSyncId).toBe(syncId);
    expect(device.state().config?.syncId).toBe(syncId);
  });

  it('reports the device refusing a file signed by another key, and keeps its configuration', async () => {
    const { device, session } = await attach();
    const { file } = configFile(device.descriptor.serialNumber, 'EPC', generateSigningKeyPair());
    const error = await uploadConfiguration(session, file, { checkFile: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeviceError);
    expect(error).toMatchObject({ code: 'CONFIG_BAD_SIGNATURE', coapCode: '4.03' });
    expect(device.state().config).toBeNull();
  });

  it('refuses a file for another device before sending it, and the device refuses it too', async () => {
    const { device, session } = await attach();
    const { file } = configFile('EPC999999');
    await expect(uploadConfiguration(session, file)).rejects.toMatchObject({
      name: 'FileFormatError',
      code: 'CONFIG_WRONG_DEVICE',
    });
    const error = await uploadConfiguration(session, file, { checkFile: false }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'CONFIG_WRONG_DEVICE',
      coapCode: '4.09',
      details: { serialNumber: 'EPC999999' },
    });
    expect(device.state().config).toBeNull();
  });

  it('refuses an image for another device type before touching the device', async () => {
    const { session } = await attach();
    const srcp = firmwareImage('2.0.0', 1024, 'SRCP');
    await expect(
      uploadFirmware(session, srcp, { signedManifest: signedManifestFor(srcp), version: '2.0.0', deviceType: 'EPC' }),
    ).rejects.toBeInstanceOf(FileFormatError);
    await expect(
      uploadFirmware(session, srcp, { signedManifest: signedManifestFor(srcp), version: '2.0.0', deviceType: 'SRCP' }),
    ).rejects.toMatchObject({ code: 'FW_WRONG_TYPE' });
  });

  it('never takes an image whose bytes do not match the announced SHA-256', async () => {
    const { device, session } = await attach();
    const image = firmwareImage('2.0.0', 8 * 1024);
    await identify(session);
    await session.engine.request({
      method: CODE.POST,
      path: 'fw',
      options: [contentFormatOption(60)],
      payload: encodeCbor({
        size: image.length,
        sha256: sha256(image),
        version: '2.0.0',
        deviceType: 'EPC',
        signedManifest: signedManifestFor(image),
      }),
      step: 'firmware announce',
    });
    const other = image.map((byte, i) => (i === 5000 ? byte ^ 0xff : byte));
    const error = await uploadBlock1(session.engine, {
      path: 'fw/data',
      data: other,
      blockSize: 1024,
      window: 4,
      what: 'firmware',
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'FW_HASH_MISMATCH', coapCode: '4.00' });
    expect(await readFirmwareStatus(session)).toMatchObject({ state: 'failed', error: 'FW_HASH_MISMATCH' });
    await expect(applyFirmware(session, { version: '2.0.0' })).rejects.toMatchObject({ code: 'FW_INCOMPLETE' });
    expect(device.state().firmwareVersion).toBe('1.0.0');
  });

  it('reboots on request and comes back with a new bootId', async () => {
    const { session } = await attach();
    const before = await identify(session);
    const after = await reboot(session);
    expect(after.bootId).not.toBe(before.bootId);
    expect(after.serialNumber).toBe(before.serialNumber);
  });

  it('observes the firmware status while an upload runs', async () => {
    const { session } = await attach();
    const controller = new AbortController();
    const states: string[] = [];
    const watching = (async () => {
      for await (const status of observeFirmwareStatus(session, controller.signal)) {
        states.push(status.state);
        if (status.state === 'received') break;
      }
    })();
    // Let the registration reach the device before the upload starts.
    while (states.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const image = firmwareImage('2.1.0', 64 * 1024);
    await uploadFirmware(session, image, {
      signedManifest: signedManifestFor(image),
      version: '2.1.0',
      deviceType: 'EPC',
    });
    await watching;
    expect(states[0]).toBe('idle');
    expect(states).toContain('receiving');
    expect(states.at(-1)).toBe('received');
  });
});

describe('faults on the serial line', () => {
  it('completes an upload through dropped and corrupted frames', async () => {
    const { device, session } = await attach({ faults: { seed: 7, drop: 0.03, corrupt: 0.03 } });
    const image = firmwareImage('3.0.0', 48 * 1024);
    await uploadFirmware(session, image, {
      signedManifest: signedManifestFor(image),
      version: '3.0.0',
      deviceType: 'EPC',
    });
    expect(device.faultStats.dropped + device.faultStats.corrupted).toBeGreaterThan(0);
    expect(session.engine.stats.retransmissions).toBeGreaterThan(0);
    const after = await applyFirmware(session, { version: '3.0.0' });
    expect(after.firmwareVersion).toBe('3.0.0');
  });

  it('resumes from the acknowledged offset after the cable is pulled mid-upload', async () => {
    const pullAt = 100 * 1024 + 77;
    const { device, session } = await attach({ faults: { pullAt, replugAfterMs: 500 } });
    const image = firmwareImage('3.1.0', 256 * 1024);
    const announcedFigures: number[] = [];
    const result = await uploadFirmware(session, image, {
      signedManifest: signedManifestFor(image),
      version: '3.1.0',
      deviceType: 'EPC',
      onProgress: (progress) => {
        if (progress.announced) announcedFigures.push(progress.bytes);
      },
    });
    expect(device.faultStats.pulls).toBe(1);
    expect(result.announcedOffsets).toHaveLength(2);
    expect(result.announcedOffsets[1]).toBeGreaterThan(0);
    expect(result.announcedOffsets[1]).toBeLessThanOrEqual(pullAt);
    // Progress says where each announce put the upload: the start, then the resume.
    expect(announcedFigures).toEqual(result.announcedOffsets);
    expect(device.state().upload).toMatchObject({ state: 'received' });
    expect((await applyFirmware(session, { version: '3.1.0' })).firmwareVersion).toBe('3.1.0');
  });

  it('ends in a clean timeout when the cable stays out, with the device holding no partial image as received', async () => {
    const { device, session } = await attach(
      { faults: { pullAt: 20 * 1024, replugAfterMs: 600_000 } },
      { reconnectTimeoutMs: 1500 },
    );
    const image = firmwareImage('3.2.0', 64 * 1024);
    const error = await uploadFirmware(session, image, {
      signedManifest: signedManifestFor(image),
      version: '3.2.0',
      deviceType: 'EPC',
      maxResumes: 1,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeviceTimeoutError);
    expect((error as Error).message).toMatch(
      /^EPC\w+ did not come back from firmware upload resume within 1\.5 s over serial:/,
    );
    expect(device.state().upload).toMatchObject({ state: 'receiving' });
    expect(device.state().upload!.ackedOffset).toBeLessThan(image.length);
    expect(device.state().firmwareVersion).toBe('1.0.0');
  });

  it('rides out a stalled device', async () => {
    const { device, session } = await attach({ faults: { stall: { ms: 2500, atOffset: 30 * 1024 } } });
    const image = firmwareImage('3.3.0', 64 * 1024);
    await uploadFirmware(session, image, {
      signedManifest: signedManifestFor(image),
      version: '3.3.0',
      deviceType: 'EPC',
    });
    expect(device.faultStats.stalls).toBe(1);
    expect(device.state().upload).toMatchObject({ state: 'received' });
  });

  it('reports a power cut during apply cleanly, and a second apply succeeds', async () => {
    const { device, session } = await attach({ faults: { powerCycleDuringApply: true } });
    const image = firmwareImage('3.4.0', 32 * 1024);
    await uploadFirmware(session, image, {
      signedManifest: signedManifestFor(image),
      version: '3.4.0',
      deviceType: 'EPC',
    });
    const error = await applyFirmware(session, { version: '3.4.0' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeviceVerificationError);
    expect(error).toMatchObject({ code: 'FW_APPLY_FAILED' });
    expect(device.state().firmwareVersion).toBe('1.0.0');
    expect(await readFirmwareStatus(session)).toMatchObject({ state: 'received' });
    expect((await applyFirmware(session, { version: '3.4.0' })).firmwareVersion).toBe('3.4.0');
  });
});
