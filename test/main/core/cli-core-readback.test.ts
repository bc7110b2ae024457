import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CliCore } from '../../../main/core';
import { appReadbackHandlers } from '../../../main/core/handlers/readback';
import { openWorkstationLedger } from '../../../main/engine/ledger';
import type { SimulatedDevice } from '../../../simulator';
import { useScratchDir } from '../../fixtures/scratch';
import { startUdpDevice } from '../../fixtures/simulated-device';
import { cliCoreFor } from '../../fixtures/cli-core';

/**
 * Issue 27: `device list`, `device verify` and the parameter record through the door
 * (createCliCore's `readback.*`). A real simulated EPC on UDP on loopback is listed and read back;
 * the service is a loopback port nobody listens on, so each device reads "unknown", and what was
 * looked at still goes into this workstation's ledger. A device the last listing did not identify,
 * and a parameter table no job of this run read back, are refused: the core judges and records
 * only what it read itself.
 */

const SERIAL = 'EPC000151';
const NOBODY_LISTENS = 'http://127.0.0.1:9';
const devices = useScratchDir('cli-core-readback-devices');
const data = useScratchDir('cli-core-readback-data');
let device: SimulatedDevice;
let link = '';
let core: CliCore;

beforeAll(async () => {
  device = await startUdpDevice(devices.dir, { serialNumber: SERIAL, firmwareVersion: '1.1.0' });
  link = `udp:${device.descriptor.host}:${device.descriptor.port}`;
});
afterAll(async () => {
  await device?.stop();
});

beforeEach(() => {
  core = cliCoreFor(data.dir, { serviceUrl: NOBODY_LISTENS, orgId: 'org-1' });
});
afterEach(async () => {
  await core.close();
});

const ledgerEntries = () => openWorkstationLedger(data.dir).entries();

describe("the CLI core's read-back channels", () => {
  it('readback.attached identifies the device at a link given', async () => {
    const listed = await core.invoke('readback.attached', { links: [link] });
    const found = listed.find((d) => d.link === link);
    expect(found).toMatchObject({
      linkKind: 'udp',
      error: null,
      identity: { serialNumber: SERIAL, deviceType: 'EPC' },
    });
    expect(found!.identity!.firmwareVersion).toBe('1.1.0');
  });

  it('refuses to judge a device the last listing did not identify', async () => {
    await expect(core.invoke('readback.verify', { links: [link] })).rejects.toThrow(
      /not a device the last readback\.attached identified/,
    );
    await expect(core.invoke('readback.standing', { links: [link] })).rejects.toThrow(
      /list the attached devices first/,
    );
  });

  it('readback.verify judges the device without the service and records what was seen in the ledger', async () => {
    const before = (await ledgerEntries()).length;
    await core.invoke('readback.attached', { links: [link] });
    const judged = await core.invoke('readback.verify', { links: [link] });
    expect(judged.ledgerError).toBeNull();
    expect(judged.readBackFailures).toEqual([]);
    expect(judged.verdicts).toHaveLength(1);
    expect(judged.verdicts[0]).toMatchObject({ link, serialNumber: SERIAL, sync: { state: 'unknown' } });
    expect(judged.verdicts[0]!.sync.firmware.version).toBe('1.1.0');
    const entries = await ledgerEntries();
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)).toMatchObject({
      action: 'verify',
      outcome: 'failure',
      serialNumber: SERIAL,
      serviceUrl: NOBODY_LISTENS,
      orgId: 'org-1',
      facts: { state: 'unknown', link, firmwareVersion: '1.1.0' },
    });
  });

  it('readback.standing without an account to observe for: "unknown", nothing confirmed or recorded', async () => {
    await core.invoke('readback.attached', { links: [link] });
    const before = (await ledgerEntries()).length;
    const { standings, error } = await core.invoke('readback.standing', { links: [link], observe: false });
    expect(error).toBeNull();
    expect(standings).toEqual([
      expect.objectContaining({
        link,
        confirmation: 'none',
        interrupted: [],
        sync: expect.objectContaining({ state: 'unknown' }),
      }),
    ]);
    expect(standings[0]!.identity.serialNumber).toBe(SERIAL);
    expect(await ledgerEntries()).toHaveLength(before);
  });

  it('readback.recordParameters records only a table a job of this run read back', async () => {
    const before = (await ledgerEntries()).length;
    const table = {
      serialNumber: SERIAL,
      syncId: 'sync-1',
      tableDigest: 'a'.repeat(64),
      person: 'Ada Lovelace',
      actor: null,
    };
    await expect(
      core.invoke('readback.recordParameters', {
        ...table,
        confirmation: { person: 'Ada Lovelace', checksum: 'AAAAAAAA' },
      }),
    ).rejects.toThrow(/No job of this run read back this parameter table of EPC000151/);
    await expect(core.invoke('readback.recordParameters', { ...table, confirmation: null })).rejects.toThrow(
      /No job of this run/,
    );
    await expect(
      core.invoke('readback.recordParameters', { ...table, tableDigest: 'not a digest', confirmation: null }),
    ).rejects.toThrow(/tableDigest: a table's digest: 64 hex digits/);
    expect(await ledgerEntries()).toHaveLength(before);
  });

  it("readback.commissioning says what this workstation's ledger still needs of a device", async () => {
    const [answer] = await core.invoke('readback.commissioning', { serialNumbers: [SERIAL] });
    expect(answer!.serialNumber).toBe(SERIAL);
    expect(answer!.commissioning.state).not.toBe('commissioned');
    expect(answer!.commissioning.missing).toContain('configuration apply');
  });
});

describe('the read-back channels in the app', () => {
  it("answers commissioning for a role that may see the registry, and refuses the CLI's read-backs by name", async () => {
    let allowed = false;
    const handlers = appReadbackHandlers({
      ledger: { entries: async () => [] },
      admit: () => {
        if (!allowed) throw new Error('Your key may not see the device registry.');
      },
    });
    await expect(handlers['readback.commissioning']({ serialNumbers: [SERIAL] })).rejects.toThrow(/may not see/);
    allowed = true;
    const [answer] = await handlers['readback.commissioning']({ serialNumbers: [SERIAL] });
    expect(answer!.commissioning.missing).toContain('configuration apply');
    await expect(handlers['readback.verify']({ links: [link] })).rejects.toThrow(
      /readback\.verify is served to the command line/,
    );
  });
});
