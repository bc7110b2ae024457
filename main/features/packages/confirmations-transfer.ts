import { createPublicKey, randomUUID } from 'node:crypto';
import {
  buildWorkConfirmations,
  readWorkConfirmations,
  type CarriedConfirmation,
  type CarriedEnrolment,
  type WorkConfirmationsBody,
} from '../../../domain/files/work-package-confirmations';
import { verifyWorkstationKeyList } from '../../../domain/workstation-key-list';
import type { ContainerSigner } from '../../../domain/files/work-package-container';
import { ledgerEntrySchema, type LedgerEntry } from '../../../domain/ledger';
import { AuthError, NetworkError, ServiceError, type ServiceClient } from '../../cloud';
import { sendLedger } from '../../engine/ledger';
import type { Outbox } from '../../engine/outbox/outbox';
import type { DeliveryOutcome, DeliveryReport } from '../../../contract/packages';
import { WorkPackageError } from './errors';

// What a delivery answers is the contract's (packages.importConfirmations), named here as the feature always named it.
export type { DeliveryOutcome, DeliveryReport };

/**
 * Confirmations carried by hand from a laptop that never reaches the service.
 *
 * Export copies what waits in the outbox into a signed file and leaves the outbox as it is: if the
 * laptop comes back online, its outbox still sends them. Each confirmation keeps its outbox entry
 * id, and both roads send that id as the Idempotency-Key, so the service records each confirmation
 * once, whichever arrives first, and answers the other as a replay. Nothing is lost when the file
 * is, and nothing is recorded twice when both arrive.
 */

export interface ExportConfirmationsOptions {
  outbox: Pick<Outbox, 'list'>;
  signer: ContainerSigner;
  workstation: string;
  /** The workstation's ledger lines, when it keeps a ledger. */
  ledgerLines?: () => Promise<unknown[]>;
  /** Its ledger key's enrolments with the grants of the packages it imported (the key must be the signer's). */
  enrolments?: () => Promise<CarriedEnrolment[]>;
  /** Its ledger's sealed head (ledger-head.ts), carried so the importer sees whether the carried ledger reaches it. */
  ledgerHead?: () => Promise<{ seq: number; hash: string } | undefined>;
  now?: () => Date;
}

export interface ExportedConfirmations {
  bytes: Uint8Array;
  body: WorkConfirmationsBody;
  signerKeyId: string;
}

export async function exportConfirmations(options: ExportConfirmationsOptions): Promise<ExportedConfirmations> {
  const pending = (await options.outbox.list()).filter((entry) => entry.state === 'pending');
  const ledger = (await options.ledgerLines?.()) ?? [];
  if (pending.length === 0 && ledger.length === 0) {
    throw new WorkPackageError({ kind: 'nothingToExport' });
  }
  const confirmations = pending.map(
    (entry) =>
      ({
        id: entry.id,
        kind: entry.kind,
        serviceUrl: entry.serviceUrl,
        orgId: entry.orgId,
        serialNumber: entry.serialNumber,
        createdAt: entry.createdAt,
        payload: entry.payload,
      }) as CarriedConfirmation,
  );
  const body: WorkConfirmationsBody = {
    exportId: randomUUID(),
    createdAt: (options.now ?? (() => new Date()))().toISOString(),
    workstation: options.workstation,
    confirmations,
    ledger,
    enrolments: (await options.enrolments?.()) ?? [],
    ledgerHead: (await options.ledgerHead?.()) ?? null,
  };
  return { bytes: buildWorkConfirmations(body, options.signer), body, signerKeyId: options.signer.keyId };
}

export interface DeliverConfirmationsOptions {
  bytes: Uint8Array;
  account: {
    serviceUrl: string;
    orgId: string;
    client: Pick<ServiceClient, 'ledger' | 'workstations' | 'signingKey'> & {
      devices: Pick<ServiceClient['devices'], 'confirmApplyFirmware' | 'confirmApplyConfiguration'>;
    };
  };
  /** The key id of the workstation that must have signed it; any signer when absent. */
  requiredSigner?: string;
  signal?: AbortSignal;
}

/**
 * Checks a confirmations file (signature, every byte) and sends each confirmation for this
 * workstation's service and organization, oldest first, each with its own Idempotency-Key. Stops
 * sending at the first failure to reach the service; the rest are reported not sent, and the
 * whole file may be imported again later without anything being recorded twice.
 */
export async function deliverConfirmations(options: DeliverConfirmationsOptions): Promise<DeliveryReport> {
  const file = readWorkConfirmations(options.bytes);
  if (options.requiredSigner !== undefined && options.requiredSigner.toLowerCase() !== file.signer.keyId) {
    throw new WorkPackageError({
      kind: 'confirmationsSignerNotRequired',
      signer: file.signer.keyId,
      required: options.requiredSigner,
    });
  }
  const { account } = options;
  const ours = (c: { serviceUrl: string; orgId: string }) =>
    c.serviceUrl === account.serviceUrl && c.orgId === account.orgId;
  const confirmations = [...file.body.confirmations].sort((a, b) =>
    a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1,
  );
  if (confirmations.length > 0 && !confirmations.some(ours)) {
    const first = confirmations[0]!;
    throw new WorkPackageError({
      kind: 'confirmationsWrongOrganization',
      theirs: { orgId: first.orgId, serviceUrl: first.serviceUrl },
      ours: { orgId: account.orgId, serviceUrl: account.serviceUrl },
    });
  }
  // Before anything is sent: the file's signer must be the enrolled key of the workstation it names,
  // or enrol now with the grant its package carried. A file that is neither is refused whole.
  const signerKey = signerKeyOfPem(file.signer.publicKeyPem);
  await vouchForSigner(account, {
    workstation: file.body.workstation,
    signerKey,
    enrolment: file.body.enrolments.find(
      (e) => ours(e) && e.publicKey === signerKey && e.workstation === file.body.workstation,
    ),
  });
  const outcomes: DeliveryOutcome[] = [];
  let unreachable: string | undefined;
  for (const confirmation of confirmations) {
    const about = { id: confirmation.id, serialNumber: confirmation.serialNumber, kind: confirmation.kind };
    if (!ours(confirmation)) {
      outcomes.push({ ...about, outcome: 'other-organization' });
      continue;
    }
    if (unreachable !== undefined) {
      outcomes.push({ ...about, outcome: 'not-sent', message: unreachable });
      continue;
    }
    const call = options.signal ? { signal: options.signal } : {};
    try {
      const accepted =
        confirmation.kind === 'firmware'
          ? await account.client.devices.confirmApplyFirmware(
              confirmation.serialNumber,
              confirmation.payload,
              call,
              confirmation.id,
            )
          : await account.client.devices.confirmApplyConfiguration(
              confirmation.serialNumber,
              confirmation.payload,
              call,
              confirmation.id,
            );
      outcomes.push(
        accepted
          ? { ...about, outcome: 'delivered' }
          : { ...about, outcome: 'refused', message: 'The service answered without error but did not accept it.' },
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (
        error instanceof NetworkError ||
        error instanceof AuthError ||
        (error instanceof ServiceError && error.retryable)
      ) {
        // Not the service's "no" to this confirmation: nothing after it can go either.
        unreachable = message;
        outcomes.push({ ...about, outcome: 'not-sent', message });
      } else if (error instanceof ServiceError) {
        outcomes.push({ ...about, outcome: 'refused', message });
      } else {
        throw error;
      }
    }
  }
  // Only the signer's own entries: the file vouches for nothing another key signed.
  const entries = file.body.ledger.flatMap((raw): LedgerEntry[] => {
    const parsed = ledgerEntrySchema.safeParse(raw);
    return parsed.success && parsed.data.signerKey === signerKey && parsed.data.workstation === file.body.workstation
      ? [parsed.data]
      : [];
  });
  let ledger: DeliveryReport['ledger'];
  if (entries.length > 0 && unreachable === undefined) {
    // The same road as `ledger verify`: only this organization's entries whose hash and signature hold are sent.
    ledger = await sendLedger(
      { readAll: async () => entries.map((entry, i) => ({ line: i + 1, entry })) },
      account,
    ).catch((error: unknown) => ({
      error: error instanceof Error ? error.message : String(error),
    }));
  }
  return {
    exportId: file.body.exportId,
    workstation: file.body.workstation,
    signerKeyId: file.signer.keyId,
    ledgerEntries: file.body.ledger.length,
    ...(ledger ? { ledger } : {}),
    ledgerHead: headAgainst(file.body.ledgerHead, entries),
    outcomes,
  };
}

/** The carried head, with why the signer's carried entries fall short of it (or end elsewhere). */
function headAgainst(
  head: WorkConfirmationsBody['ledgerHead'],
  entries: readonly LedgerEntry[],
): DeliveryReport['ledgerHead'] {
  if (!head) return null;
  const named = entries.find((entry) => entry.seq === head.seq);
  const last = entries.at(-1);
  if (!named)
    return {
      ...head,
      fault: `the laptop's ledger head is entry ${head.seq}, but the file carries its entries only up to ${last?.seq ?? 0}: entries were cut from the end before export`,
    };
  if (named.hash !== head.hash)
    return {
      ...head,
      fault: `the laptop's ledger head names entry ${head.seq} with hash ${head.hash.slice(0, 12)}…, the file's entry ${head.seq} has ${named.hash.slice(0, 12)}…: the end of the ledger was replaced`,
    };
  return head;
}

/** A public key as ledger entries and enrolments carry it: SPKI DER, base64. */
function signerKeyOfPem(publicKeyPem: string): string {
  return createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' }).toString('base64');
}

/**
 * Refuses (WP_UNTRUSTED_SIGNER) a confirmations file whose signer the service does not vouch for:
 * the file's enrolment is sent with its package's one-time grant, or else the signer must be the
 * active key the organization's signed list enrols for that workstation. Nothing is sent before.
 */
async function vouchForSigner(
  account: DeliverConfirmationsOptions['account'],
  signer: { workstation: string; signerKey: string; enrolment: CarriedEnrolment | undefined },
): Promise<void> {
  const short = `…${signer.signerKey.slice(-12)}`;
  if (signer.enrolment) {
    const { workstation, publicKey, proof, grant } = signer.enrolment;
    try {
      await account.client.workstations.enrol({ workstation, publicKey, proof, grant });
      return;
    } catch (error) {
      if (error instanceof ServiceError && !error.retryable) {
        throw new WorkPackageError({
          kind: 'enrolmentRefused',
          key: short,
          workstation,
          serviceMessage: error.message,
        });
      }
      throw error;
    }
  }
  const root = await account.client.signingKey();
  const list = verifyWorkstationKeyList(await account.client.workstations.keyList(), {
    rootKeyPem: root.publicKeyPem,
    orgId: account.orgId,
  });
  const enrolled = list.keys.find(
    (key) => key.publicKey === signer.signerKey && key.workstation === signer.workstation && key.status === 'active',
  );
  if (!enrolled) {
    throw new WorkPackageError({ kind: 'signerNotEnrolled', key: short, workstation: signer.workstation });
  }
}
