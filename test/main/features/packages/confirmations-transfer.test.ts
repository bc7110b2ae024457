import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateContainerSigner } from '../../../../domain/files/work-package-container';
import { readWorkConfirmations } from '../../../../domain/files/work-package-confirmations';
import { NetworkError, ServiceError } from '../../../../main/cloud';
import type { ServiceClient } from '../../../../main/cloud';
import { Ledger } from '../../../../main/engine/ledger';
import { FileSecretStore } from '../../../../platform/secret-store';
import { Outbox } from '../../../../main/engine/outbox/outbox';
import {
  deliverConfirmations,
  exportConfirmations as exportConfirmationsOf,
  WorkPackageError,
  type ExportConfirmationsOptions,
} from '../../../../main/features/packages';
import { createOrganizationKey, createConfigFileSigner, generateSigningKeyPair } from '../../../../domain/files';
import { signWorkstationKeyList } from '../../../../domain/workstation-key-list';
import { createPublicKey, randomUUID } from 'node:crypto';
import { useScratchDir } from '../../../fixtures/scratch';
import { ORG_ID, SERVICE_URL } from './helpers';

/**
 * Confirmations carried by hand: exported signed and left in the outbox, delivered each with its
 * outbox id as the Idempotency-Key (so the service records it once however it arrives), refused
 * when changed or for another organization, and stopped, not lost, when the service goes away.
 */

const scratch = useScratchDir('work-confirmations');

/** The service's root key and the organization's key, as a real service has them: they sign the list of enrolled keys. */
const root = generateSigningKeyPair();
const orgKey = createOrganizationKey(ORG_ID, root.privateKeyPem);
const spki = (publicKeyPem: string) =>
  createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' }).toString('base64');

/** A laptop's export as it is made after importing a package: its key's enrolment with the package's grant. */
function exportConfirmations(options: ExportConfirmationsOptions) {
  const enrolment = {
    serviceUrl: SERVICE_URL,
    orgId: ORG_ID,
    workstation: options.workstation,
    publicKey: spki(options.signer.publicKeyPem),
    proof: 'proof',
    grant: { grantId: randomUUID(), token: 'grant-token-of-the-package' },
  };
  return exportConfirmationsOf({ enrolments: async () => [enrolment], ...options });
}
const account = { serviceUrl: SERVICE_URL, orgId: ORG_ID };
const REQUEST = { method: 'POST', path: '/v1/organizations/plant-org/devices/EPC000101/confirm' };

async function outboxWithTwo(): Promise<Outbox> {
  const outbox = new Outbox({
    dir: await mkdtemp(join(scratch.dir, 'outbox-')),
    sender: { send: () => Promise.reject(new NetworkError('unreachable', REQUEST)) },
  });
  await outbox.enqueue({
    kind: 'firmware',
    ...account,
    serialNumber: 'EPC000101',
    payload: {
      firmwareFileSuccessfullyDeployed: true,
      firmwareVersion: '1.1.0',
      applyTimeStamp: '2026-03-02T09:00:00Z',
    },
  });
  await outbox.enqueue({
    kind: 'configuration',
    ...account,
    serialNumber: 'EPC000101',
    payload: {
      configurationFileSuccessfullyDeployed: true,
      syncId: '3f1c9a52-7d4e-4b8a-9c1e-2a6b8d0e4f17',
      applyTimeStamp: '2026-03-02T09:01:00Z',
    },
  });
  return outbox;
}

/** A client that records what it is sent; `fail` decides per call. */
function recordingClient(fail: (call: number) => Error | undefined = () => undefined) {
  const sent: Array<{ serialNumber: string; kind: string; key: string | undefined; payload: unknown }> = [];
  let calls = 0;
  const answer =
    (kind: string) =>
    async (serialNumber: string, payload: unknown, _call?: unknown, key?: string): Promise<boolean> => {
      const error = fail(calls++);
      if (error) throw error;
      sent.push({ serialNumber, kind, key, payload });
      return true;
    };
  const ledgerSent: unknown[] = [];
  // The ledger road (the organization's chain): records what was sent, takes all of it as new.
  const ledger = {
    append: async (entries: readonly unknown[]) => {
      ledgerSent.push(...entries);
      return { received: entries.length, known: 0 };
    },
    page: async () => ({ entries: [], nextAfter: null }),
  } as unknown as ServiceClient['ledger'];
  const enrolled: unknown[] = [];
  // Workstation keys: records each enrolment it is sent.
  // Workstation keys: takes each enrolment it is sent (as the service takes a valid grant); its signed list vouches for none.
  const workstations = {
    enrol: async (enrolment: unknown) => {
      enrolled.push(enrolment);
      return { enrolled: true, key: enrolment };
    },
    keyList: async () =>
      signWorkstationKeyList(
        { orgId: ORG_ID, issuedAt: new Date().toISOString(), keys: [] },
        createConfigFileSigner(orgKey.privateKeyPem, orgKey.certificate),
      ),
  } as unknown as ServiceClient['workstations'];
  const signingKey = async () => ({ keyId: root.keyId, algorithm: 'ES256' as const, publicKeyPem: root.publicKeyPem });
  return {
    sent,
    ledgerSent,
    ledger,
    enrolled,
    workstations,
    signingKey,
    devices: { confirmApplyFirmware: answer('firmware'), confirmApplyConfiguration: answer('configuration') },
  };
}

describe('exporting and delivering confirmations', () => {
  it('exports what waits, signed, and leaves it in the outbox', async () => {
    const outbox = await outboxWithTwo();
    const signer = generateContainerSigner();
    const exported = await exportConfirmations({
      outbox,
      signer,
      workstation: 'plant-laptop',
      ledgerLines: async () => [{ seq: 1 }],
    });
    const read = readWorkConfirmations(exported.bytes);
    expect(read.signer.keyId).toBe(signer.keyId);
    expect(read.body.workstation).toBe('plant-laptop');
    expect(read.body.ledger).toEqual([{ seq: 1 }]);
    const waiting = await outbox.list();
    expect(read.body.confirmations.map((c) => c.id)).toEqual(waiting.map((e) => e.id));
    expect(read.body.confirmations.map((c) => c.payload)).toEqual(waiting.map((e) => e.payload));
    expect(waiting).toHaveLength(2);
  });

  it('says so when nothing waits', async () => {
    const outbox = new Outbox({
      dir: await mkdtemp(join(scratch.dir, 'empty-')),
      sender: { send: () => Promise.resolve(true) },
    });
    await expect(
      exportConfirmations({ outbox, signer: generateContainerSigner(), workstation: 'w' }),
    ).rejects.toBeInstanceOf(WorkPackageError);
  });

  it('delivers each with its outbox id as the Idempotency-Key, oldest first, the payload as written', async () => {
    const outbox = await outboxWithTwo();
    const { bytes } = await exportConfirmations({
      outbox,
      signer: generateContainerSigner(),
      workstation: 'plant-laptop',
    });
    const client = recordingClient();
    const report = await deliverConfirmations({ bytes, account: { ...account, client } });
    const waiting = await outbox.list();
    expect(client.sent.map((s) => [s.kind, s.key])).toEqual(waiting.map((e) => [e.kind, e.id]));
    expect(client.sent.map((s) => s.payload)).toEqual(waiting.map((e) => e.payload));
    expect(report.outcomes.map((o) => o.outcome)).toEqual(['delivered', 'delivered']);
    // Replayed: sent with the same keys again, which the service answers as the first time.
    const again = recordingClient();
    await deliverConfirmations({ bytes, account: { ...account, client: again } });
    expect(again.sent.map((s) => s.key)).toEqual(client.sent.map((s) => s.key));
  });

  it("carries the ledger's entries and sends this organization's sound ones to its chain on the service", async () => {
    const dir = await mkdtemp(join(scratch.dir, 'ledger-'));
    const ledger = new Ledger({ dir, secrets: new FileSecretStore(join(dir, 'secrets.json')) });
    const record = (serialNumber: string, orgId: string) => ({
      at: '2026-03-02T09:00:00Z',
      action: 'firmware-install' as const,
      outcome: 'success' as const,
      serialNumber,
      workstation: 'plant-laptop',
      serviceUrl: SERVICE_URL,
      orgId,
      facts: { firmwareVersion: '1.1.0' },
    });
    await ledger.append(record('EPC000101', ORG_ID));
    await ledger.append(record('EPC000900', 'other-org'));
    await ledger.append(record('SRCP000101', ORG_ID));
    const entries = (await ledger.readAll()).flatMap((line) => ('entry' in line ? [line.entry] : []));
    // Signed by the laptop's ledger key, as the CLI signs it: the entries its key signed are the ones sent.
    const { bytes } = await exportConfirmations({
      outbox: await outboxWithTwo(),
      signer: await ledger.containerSigner(),
      workstation: 'plant-laptop',
      ledgerLines: async () => entries,
    });
    const client = recordingClient();
    const report = await deliverConfirmations({ bytes, account: { ...account, client } });
    expect(report.ledgerEntries).toBe(3);
    expect(report.ledger).toEqual({ received: 2, known: 0, withheld: 0 });
    expect((client.ledgerSent as Array<{ serialNumber: string; hash: string }>).map((e) => e.serialNumber)).toEqual([
      'EPC000101',
      'SRCP000101',
    ]);
    expect((client.ledgerSent as Array<{ hash: string }>).map((e) => e.hash)).toEqual([
      entries[0]!.hash,
      entries[2]!.hash,
    ]);
  });

  it("carries the laptop's sealed ledger head, and says when the carried ledger was cut short of it", async () => {
    const dir = await mkdtemp(join(scratch.dir, 'head-'));
    const ledger = new Ledger({ dir, secrets: new FileSecretStore(join(dir, 'secrets.json')) });
    const record = (serialNumber: string) => ({
      at: '2026-03-02T09:00:00Z',
      action: 'firmware-install' as const,
      outcome: 'success' as const,
      serialNumber,
      workstation: 'plant-laptop',
      serviceUrl: SERVICE_URL,
      orgId: ORG_ID,
      facts: {},
    });
    for (const serial of ['EPC000101', 'SRCP000101', 'EPC000102']) await ledger.append(record(serial));
    const entries = await ledger.entries();
    const head = await ledger.sealedHead();
    expect(head).toEqual({ seq: 3, hash: entries[2]!.hash });
    const ledgerHead = async () => (head && !('fault' in head) ? head : undefined);
    const whole = await exportConfirmations({
      outbox: await outboxWithTwo(),
      signer: await ledger.containerSigner(),
      workstation: 'plant-laptop',
      ledgerLines: async () => entries,
      ledgerHead,
    });
    expect(readWorkConfirmations(whole.bytes).body.ledgerHead).toEqual({ seq: 3, hash: entries[2]!.hash });
    expect(
      (await deliverConfirmations({ bytes: whole.bytes, account: { ...account, client: recordingClient() } }))
        .ledgerHead,
    ).toEqual({ seq: 3, hash: entries[2]!.hash });
    // The last entry (say, a failed install) cut from the ledger file before export: the head still names it.
    const cut = await exportConfirmations({
      outbox: await outboxWithTwo(),
      signer: await ledger.containerSigner(),
      workstation: 'plant-laptop',
      ledgerLines: async () => entries.slice(0, 2),
      ledgerHead,
    });
    const report = await deliverConfirmations({ bytes: cut.bytes, account: { ...account, client: recordingClient() } });
    expect(report.ledgerHead).toEqual({
      seq: 3,
      hash: entries[2]!.hash,
      fault:
        "the laptop's ledger head is entry 3, but the file carries its entries only up to 2: entries were cut from the end before export",
    });
  });

  it('refuses a file with one byte changed, sending nothing', async () => {
    const { bytes } = await exportConfirmations({
      outbox: await outboxWithTwo(),
      signer: generateContainerSigner(),
      workstation: 'w',
    });
    for (const position of [
      0,
      40,
      Math.floor(bytes.length / 3),
      Math.floor(bytes.length / 2),
      bytes.length - 10,
      bytes.length - 1,
    ]) {
      const changed = new Uint8Array(bytes);
      changed[position]! ^= 0x04;
      const client = recordingClient();
      await expect(deliverConfirmations({ bytes: changed, account: { ...account, client } })).rejects.toMatchObject({
        code: expect.stringMatching(/^WP_(TAMPERED|NOT_A_PACKAGE)$/),
      });
      expect(client.sent).toEqual([]);
    }
  });

  it('refuses a file of another organization, and one signed by another workstation than the one named', async () => {
    const signer = generateContainerSigner();
    const { bytes } = await exportConfirmations({ outbox: await outboxWithTwo(), signer, workstation: 'w' });
    const client = recordingClient();
    await expect(
      deliverConfirmations({ bytes, account: { serviceUrl: SERVICE_URL, orgId: 'other-org', client } }),
    ).rejects.toThrow(
      `The confirmations in this file are for organization ${ORG_ID} at ${SERVICE_URL}, but this workstation works for organization other-org at ${SERVICE_URL}. Import it on a workstation logged in to that organization.`,
    );
    await expect(
      deliverConfirmations({ bytes, account: { ...account, client }, requiredSigner: generateContainerSigner().keyId }),
    ).rejects.toMatchObject({ code: 'WP_UNTRUSTED_SIGNER' });
    expect(client.sent).toEqual([]);
  });

  it('refuses whole a file whose signer is not enrolled and that carries no grant, or whose grant the service refuses', async () => {
    const signer = generateContainerSigner();
    const bare = await exportConfirmationsOf({ outbox: await outboxWithTwo(), signer, workstation: 'plant-laptop' });
    const client = recordingClient();
    await expect(deliverConfirmations({ bytes: bare.bytes, account: { ...account, client } })).rejects.toMatchObject({
      code: 'WP_UNTRUSTED_SIGNER',
      message: expect.stringMatching(
        /not the enrolled key of workstation plant-laptop, and it carries no enrolment grant/,
      ),
    });
    // A grant the service refuses (spent, expired, made up).
    const granted = await exportConfirmations({ outbox: await outboxWithTwo(), signer, workstation: 'plant-laptop' });
    const refusing = recordingClient();
    refusing.workstations.enrol = async () => {
      throw new ServiceError(
        403,
        [{ code: 'WORKSTATION_GRANT_INVALID', message: 'Enrolment grant x was used for another key.' }],
        REQUEST,
      );
    };
    await expect(
      deliverConfirmations({ bytes: granted.bytes, account: { ...account, client: refusing } }),
    ).rejects.toMatchObject({
      code: 'WP_UNTRUSTED_SIGNER',
      message: expect.stringMatching(/refused to enrol key .*used for another key.*Nothing of the file was sent/),
    });
    expect([...client.sent, ...refusing.sent, ...client.ledgerSent, ...refusing.ledgerSent]).toEqual([]);
  });

  it('stops at the first failure to reach the service and reports the rest not sent; a refusal is reported and the rest go on', async () => {
    const { bytes } = await exportConfirmations({
      outbox: await outboxWithTwo(),
      signer: generateContainerSigner(),
      workstation: 'w',
    });
    const down = recordingClient(() => new NetworkError('unreachable', REQUEST));
    const report = await deliverConfirmations({ bytes, account: { ...account, client: down } });
    expect(report.outcomes.map((o) => o.outcome)).toEqual(['not-sent', 'not-sent']);

    const refusing = recordingClient((call) =>
      call === 0
        ? new ServiceError(
            404,
            [{ code: 'DEVICE_NOT_FOUND', message: 'Device EPC000101 is not registered in this organization.' }],
            REQUEST,
          )
        : undefined,
    );
    const mixed = await deliverConfirmations({ bytes, account: { ...account, client: refusing } });
    expect(mixed.outcomes.map((o) => o.outcome)).toEqual(['refused', 'delivered']);
  });
});
