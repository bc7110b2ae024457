import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { z } from 'zod';
import type { LedgerEntry } from './ledger';
import { ledgerLinkFaultText, type LedgerLinkFault } from './ledger-link-fault';

/**
 * Workstation keys: which ledger key signs for which workstation of an organization, as the
 * service vouches for it. A workstation's key is enrolled by a signed-in user (who, when); an entry
 * is only taken as the workstation's when the key enrolled for that workstation signed it. A key
 * ends by an Admin's rotation (a new key for the same workstation) or revocation; the entries the
 * service had received from it by then stay good (`validThroughSeq`), any later one does not.
 *
 * Pure: the shapes, the proof of possession an enrolment carries, and the check of an entry
 * against the enrolled keys. Keeping them is server/store/workstation-keys.ts.
 */

export const WORKSTATION_ENROLMENT_FORMAT = 'provisioner-workstation-enrolment/1';

/** The ledger's workstation id (main/engine/jobs/workstation.ts), and the key as entries carry it. */
export const workstationIdSchema = z.string().min(1).max(128);
const signerKeySchema = z.string().min(1).max(200);

/** What a workstation sends to be enrolled: its key, and that key's signature over what it asks. */
export const workstationEnrolmentSchema = z.object({
  workstation: workstationIdSchema,
  /** The ledger key's public half, SPKI DER base64, exactly as its entries carry it. */
  publicKey: signerKeySchema,
  /** Ed25519 signature (base64) by that key over enrolmentProofBytes: the sender holds the key. */
  proof: z.string().min(1).max(200),
  /** Replace the workstation's enrolled key by this one (Admin only); the old key ends. */
  rotate: z.boolean().optional(),
  /** A work package's one-time grant: the plant laptop that never reached the service enrols with it. */
  grant: z.object({ grantId: z.uuid(), token: z.string().min(16).max(200) }).optional(),
});
export type WorkstationEnrolment = z.infer<typeof workstationEnrolmentSchema>;

export const enrolledWorkstationKeySchema = z.object({
  workstation: workstationIdSchema,
  publicKey: signerKeySchema,
  enrolledBy: z.string(),
  enrolledAt: z.string(),
  /** active, or how it ended. */
  status: z.enum(['active', 'rotated', 'revoked']),
  endedAt: z.string().nullable(),
  endedBy: z.string().nullable(),
  reason: z.string().nullable(),
  /** For an ended key: its entries up to this seq were received before it ended and stay good. */
  validThroughSeq: z.number().int().min(0).nullable(),
});
export type EnrolledWorkstationKey = z.infer<typeof enrolledWorkstationKeySchema>;

/** What the service answers to an enrolment. */
export const workstationEnrolmentResultSchema = z.object({
  /** False when this key was already the workstation's: nothing changed. */
  enrolled: z.boolean(),
  key: enrolledWorkstationKeySchema,
});

/** The bytes an enrolment's proof signs: the organization, the workstation and the key, nothing else. */
export function enrolmentProofBytes(input: { orgId: string; workstation: string; publicKey: string }): Uint8Array {
  return new TextEncoder().encode(
    JSON.stringify([WORKSTATION_ENROLMENT_FORMAT, input.orgId, input.workstation, input.publicKey]),
  );
}

export function signEnrolmentProof(
  input: { orgId: string; workstation: string; publicKey: string },
  privateKeyPem: string,
): string {
  return sign(null, enrolmentProofBytes(input), createPrivateKey(privateKeyPem)).toString('base64');
}

/** Whether the proof is the named key's signature over this organization, workstation and key. */
export function enrolmentProofHolds(input: {
  orgId: string;
  workstation: string;
  publicKey: string;
  proof: string;
}): boolean {
  try {
    const key = createPublicKey({ key: Buffer.from(input.publicKey, 'base64'), format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'ed25519') return false;
    return verify(null, enrolmentProofBytes(input), key, Buffer.from(input.proof, 'base64'));
  } catch {
    return false;
  }
}

function short(key: string): string {
  return `${key.slice(-12)}`;
}

/**
 * Why an entry is not its workstation's by the enrolled keys, or undefined when it is: the key that
 * signed it must be enrolled for the workstation it names; an ended key signs only up to the last
 * entry the service had from it when it ended. (The entry's own hash and signature are
 * ledgerEntryFault's.)
 */
export function workstationKeyFault(
  entry: Pick<LedgerEntry, 'workstation' | 'signerKey' | 'seq'>,
  keys: readonly EnrolledWorkstationKey[],
): string | undefined {
  const fault = workstationKeyFaultOf(entry, keys);
  return fault && ledgerLinkFaultText(fault);
}

/** As workstationKeyFault, as a code and its values (said in the reader's language by ledgerLinkFaultText). */
export function workstationKeyFaultOf(
  entry: Pick<LedgerEntry, 'workstation' | 'signerKey' | 'seq'>,
  keys: readonly EnrolledWorkstationKey[],
): LedgerLinkFault | undefined {
  const key = keys.find((k) => k.publicKey === entry.signerKey);
  if (!key) {
    const enrolled = keys.some((k) => k.workstation === entry.workstation);
    return {
      kind: enrolled ? 'notEnrolledKey' : 'noEnrolledKey',
      workstation: entry.workstation,
      key: short(entry.signerKey),
    };
  }
  if (key.workstation !== entry.workstation)
    return { kind: 'keyOfOtherWorkstation', workstation: entry.workstation, keyWorkstation: key.workstation };
  if (key.status !== 'active' && entry.seq > (key.validThroughSeq ?? 0)) {
    return {
      kind: 'keyEnded',
      how: key.status === 'revoked' ? 'revoked' : 'rotated',
      endedAt: key.endedAt ?? null,
      endedBy: key.endedBy ?? null,
      why: key.reason || null,
      validThroughSeq: key.validThroughSeq ?? 0,
    };
  }
  return undefined;
}

/**
 * Why an entry of this workstation's own ledger is not this workstation's, or undefined: it must
 * name this workstation and be signed by its key. With the organization's enrolled keys, by the key
 * enrolled for it (an older one within its validity); the key it holds now also while no key of it
 * is enrolled yet (a laptop that never signed in). Without them, by the key it holds now.
 */
export function ownEntryKeyFault(
  entry: Pick<LedgerEntry, 'workstation' | 'signerKey' | 'seq'>,
  own: { workstation: string; signerKey: string; keys?: readonly EnrolledWorkstationKey[] },
): string | undefined {
  const fault = ownEntryKeyFaultOf(entry, own);
  return fault && ledgerLinkFaultText(fault);
}

/** As ownEntryKeyFault, as a code and its values. */
export function ownEntryKeyFaultOf(
  entry: Pick<LedgerEntry, 'workstation' | 'signerKey' | 'seq'>,
  own: { workstation: string; signerKey: string; keys?: readonly EnrolledWorkstationKey[] },
): LedgerLinkFault | undefined {
  if (entry.workstation !== own.workstation)
    return { kind: 'otherWorkstation', workstation: entry.workstation, own: own.workstation };
  if (own.keys) {
    const neverEnrolled = !own.keys.some(
      (key) => key.workstation === own.workstation || key.publicKey === own.signerKey,
    );
    if (neverEnrolled && entry.signerKey === own.signerKey) return undefined;
    return workstationKeyFaultOf(entry, own.keys);
  }
  if (entry.signerKey !== own.signerKey)
    return { kind: 'notOwnKey', key: short(entry.signerKey), ownKey: short(own.signerKey) };
  return undefined;
}

/** A one-time enrolment grant, as a work package carries it: whoever holds it may enrol one key, once, until it expires. */
export const enrolmentGrantSchema = z.object({
  grantId: z.uuid(),
  token: z.string().min(16).max(200),
  expiresAt: z.string(),
});
export type EnrolmentGrant = z.infer<typeof enrolmentGrantSchema>;
