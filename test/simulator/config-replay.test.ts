import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeCbor } from '../../domain/files/cbor';
import { encodeConfigFile, type ConfigFileContent } from '../../domain/files/config-file';
import { CODE } from '../../main/devices/coap';
import type { SimulatedDevice } from '../../simulator';
import { organizationSigner } from '../fixtures/config-files';
import {
  configContent,
  useScratchDir,
  serviceKeys,
  signedConfigFile,
  startUdpDevice,
  uniqueSerial,
} from './helpers/fixtures';
import { errorCode, RawCoapClient } from './helpers/raw-client';
import { openUdpTransport, type Transport } from './helpers/transports';

/**
 * The attacker's view: a raw CoAP client that sends a device whatever configuration file it holds,
 * without any of the host's own checks. Every file here is genuine (signed by an organization key
 * the service's root certified); what the device must refuse is where and when it is used: an
 * older file again, another device's file, another organization's file once it is claimed.
 */

const scratch = useScratchDir('config-replay');

interface Bench {
  serial: string;
  device: SimulatedDevice;
  client: RawCoapClient;
  transport: Transport;
}

let open: Bench[] = [];
afterEach(async () => {
  for (const bench of open) {
    await bench.transport.close();
    await bench.device.stop();
  }
  open = [];
});

async function start(serial = uniqueSerial('EPC')): Promise<Bench> {
  const device = await startUdpDevice(scratch.dir, { serialNumber: serial });
  const transport = await openUdpTransport('127.0.0.1', device.descriptor.port!);
  const bench = { serial, device, transport, client: new RawCoapClient(transport, { ackTimeoutMs: 200, retries: 6 }) };
  open.push(bench);
  return bench;
}

/** Polls until the device reached the state; the test's own timeout bounds it. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

async function send(bench: Bench, file: Uint8Array) {
  const { final } = await bench.client.uploadBlock1('config', file, { blockSize: 256, window: 2, size1: true });
  return { code: final.code, error: errorCode(final), body: decodeCbor(final.payload) as Record<string, unknown> };
}

/** Sends a file the device must take, and waits until it restarted into it. */
async function apply(bench: Bench, file: Uint8Array, syncId: string): Promise<void> {
  const bootId = bench.device.state().bootId;
  const answer = await send(bench, file);
  expect(answer).toMatchObject({ code: CODE.CHANGED, body: { syncId } });
  await until(() => bench.device.state().bootId === bootId + 1);
  // Answers again: the restart is over.
  await bench.client.getCbor('info');
}

function made(
  serial: string,
  overrides: Partial<ConfigFileContent> = {},
): { content: ConfigFileContent; file: Uint8Array } {
  const content = configContent(serial, 'EPC', overrides);
  return { content, file: signedConfigFile(content) };
}

/** A genuine file of another organization: its key is certified by the same root the device trusts. */
function madeByOtherOrganization(serial: string): { content: ConfigFileContent; file: Uint8Array } {
  const content = configContent(serial, 'EPC', { orgId: 'other-org' });
  return { content, file: encodeConfigFile(content, organizationSigner(serviceKeys, 'other-org')) };
}

describe('configuration files a device refuses although they are genuine', () => {
  it('an older file again (a replay): refused, the device keeps the newer one and does not restart', async () => {
    const bench = await start();
    const older = made(bench.serial);
    const newer = made(bench.serial);
    await apply(bench, older.file, older.content.syncId);
    await apply(bench, newer.file, newer.content.syncId);
    const before = bench.device.state();
    const stored = await readFile(join(scratch.dir, bench.serial, 'config.cbor'));

    const replay = await send(bench, older.file);
    expect([replay.code, replay.error]).toEqual(['4.09', 'CONFIG_SUPERSEDED']);
    expect(replay.body).toMatchObject({ sequence: newer.content.sequence, syncId: newer.content.syncId });
    expect(bench.device.state()).toEqual(before);
    expect(Buffer.compare(await readFile(join(scratch.dir, bench.serial, 'config.cbor')), stored)).toBe(0);
    expect(await bench.client.getCbor('config')).toMatchObject({
      syncId: newer.content.syncId,
      sequence: newer.content.sequence,
      blank: false,
    });
  });

  it('the blank file after a real one: refused; a blank file made later resets the device', async () => {
    const bench = await start();
    const blankBefore = made(bench.serial, { blank: true, configurationId: null, device: {}, peers: [], safety: {} });
    const real = made(bench.serial);
    await apply(bench, real.file, real.content.syncId);

    const replay = await send(bench, blankBefore.file);
    expect([replay.code, replay.error]).toEqual(['4.09', 'CONFIG_SUPERSEDED']);
    expect(bench.device.state().config).toMatchObject({ syncId: real.content.syncId, blank: false });

    const blankAfter = made(bench.serial, { blank: true, configurationId: null, device: {}, peers: [], safety: {} });
    await apply(bench, blankAfter.file, blankAfter.content.syncId);
    expect(bench.device.state().config).toMatchObject({
      syncId: blankAfter.content.syncId,
      blank: true,
      sequence: blankAfter.content.sequence,
    });
  });

  it('a file for another serial number: refused, nothing applied', async () => {
    const bench = await start();
    const foreign = made(uniqueSerial('EPC'));
    const answer = await send(bench, foreign.file);
    expect([answer.code, answer.error]).toEqual(['4.09', 'CONFIG_WRONG_DEVICE']);
    expect(answer.body).toMatchObject({ serialNumber: foreign.content.serialNumber });
    expect(bench.device.state()).toMatchObject({ config: null, claim: null });
  });

  it("another organization's file once the device is claimed: refused, whatever its sequence", async () => {
    const bench = await start();
    const own = made(bench.serial);
    await apply(bench, own.file, own.content.syncId);
    const claim = bench.device.state().claim;
    expect(claim).toMatchObject({
      orgId: own.content.orgId,
      keyId: organizationSigner(serviceKeys, own.content.orgId).keyId,
    });
    const before = bench.device.state();

    const intruder = madeByOtherOrganization(bench.serial);
    expect(intruder.content.sequence).toBeGreaterThan(own.content.sequence);
    const answer = await send(bench, intruder.file);
    expect([answer.code, answer.error]).toEqual(['4.03', 'CONFIG_WRONG_ORGANIZATION']);
    expect(answer.body).toMatchObject({ orgId: own.content.orgId, orgKeyId: claim!.keyId });
    expect(bench.device.state()).toEqual(before);
    expect(await bench.client.getCbor('config')).toMatchObject({ orgId: own.content.orgId, orgKeyId: claim!.keyId });
  });

  it('the same file twice: success, and nothing changes (state, appliedAt, no restart)', async () => {
    const bench = await start();
    const file = made(bench.serial);
    await apply(bench, file.file, file.content.syncId);
    const before = bench.device.state();

    const again = await send(bench, file.file);
    expect(again).toEqual({
      code: CODE.CHANGED,
      error: undefined,
      body: { syncId: file.content.syncId, unchanged: true },
    });
    expect(bench.device.state()).toEqual(before);

    // Had the repeat restarted the device, the next apply would leave it two boots on, not one.
    const next = made(bench.serial);
    await apply(bench, next.file, next.content.syncId);
    expect(bench.device.state().bootId).toBe(before.bootId + 1);
  });
});

describe('claiming', () => {
  it('an unclaimed device takes the first genuine file of any organization, and keeps that organization across a blank file', async () => {
    const bench = await start();
    expect(await bench.client.getCbor('config')).toMatchObject({
      syncId: null,
      sequence: null,
      orgId: null,
      orgKeyId: null,
    });
    const first = madeByOtherOrganization(bench.serial);
    await apply(bench, first.file, first.content.syncId);
    const blank = configContent(bench.serial, 'EPC', { orgId: 'other-org', blank: true, configurationId: null });
    await apply(bench, encodeConfigFile(blank, organizationSigner(serviceKeys, 'other-org')), blank.syncId);
    expect(bench.device.state().claim).toMatchObject({ orgId: 'other-org' });
    const answer = await send(bench, made(bench.serial).file);
    expect(answer.error).toBe('CONFIG_WRONG_ORGANIZATION');
  });

  it('a factory reset (a new state directory) unclaims the device', async () => {
    const first = await start();
    const own = made(first.serial);
    await apply(first, own.file, own.content.syncId);
    await first.transport.close();
    await first.device.stop();
    open = [];
    await rm(join(scratch.dir, first.serial), { recursive: true, force: true });

    const reset = await start(first.serial);
    expect(reset.device.state()).toMatchObject({ claim: null, config: null });
    const other = madeByOtherOrganization(reset.serial);
    await apply(reset, other.file, other.content.syncId);
    expect(reset.device.state().claim).toMatchObject({ orgId: 'other-org' });
  });
});
