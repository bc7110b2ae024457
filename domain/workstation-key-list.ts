import { createPublicKey, verify } from 'node:crypto';
import { z } from 'zod';
import { verifyOrganizationKey } from './files/config-file-signature';
import { enrolledWorkstationKeySchema, type EnrolledWorkstationKey } from './workstation-keys';

/**
 * The organization's list of enrolled workstation keys, signed by the organization's key (the one
 * that signs its configuration files, certified by the service's root key), so that a workstation
 * that cannot reach the service can still tell which key signs for which workstation: the laptop
 * caches it, work packages carry it, `ledger verify` checks each entry against it.
 *
 * What is signed is the body's JSON text, exactly as it travels, after a line naming the format
 * (so that no other thing the organization's key signs can be taken for a key list).
 */

export const WORKSTATION_KEY_LIST_FORMAT = 'provisioner-workstation-keys/1';

export const workstationKeyListBodySchema = z.object({
  format: z.literal(WORKSTATION_KEY_LIST_FORMAT),
  orgId: z.string().min(1),
  issuedAt: z.string(),
  keys: z.array(enrolledWorkstationKeySchema),
});
export type WorkstationKeyListBody = z.infer<typeof workstationKeyListBodySchema>;

export const signedWorkstationKeyListSchema = z.object({
  /** The body's JSON text: what is signed. */
  body: z.string().min(1).max(4_000_000),
  /** ES256 (IEEE P1363) over signedBytes(body), base64. */
  signature: z.string().min(1).max(200),
  /** The root key's certificate of the organization key that signed (config-file-org-key.ts), base64. */
  certificate: z.string().min(1).max(4000),
});
export type SignedWorkstationKeyList = z.infer<typeof signedWorkstationKeyListSchema>;

function signedBytes(body: string): Uint8Array {
  return new TextEncoder().encode(`${WORKSTATION_KEY_LIST_FORMAT}\n${body}`);
}

/** Signs the list with the organization's key (its signer's sign() and certificate). */
export function signWorkstationKeyList(
  input: { orgId: string; issuedAt: string; keys: readonly EnrolledWorkstationKey[] },
  signer: { orgId: string; certificate: Uint8Array; sign(data: Uint8Array): Uint8Array },
): SignedWorkstationKeyList {
  const body = JSON.stringify({
    format: WORKSTATION_KEY_LIST_FORMAT,
    orgId: input.orgId,
    issuedAt: input.issuedAt,
    keys: input.keys,
  });
  return {
    body,
    signature: Buffer.from(signer.sign(signedBytes(body))).toString('base64'),
    certificate: Buffer.from(signer.certificate).toString('base64'),
  };
}

export class WorkstationKeyListError extends Error {}

/**
 * The list's body when its certificate chains to `rootKeyPem`, its signature holds and it is the
 * organization's; throws saying which does not.
 */
export function verifyWorkstationKeyList(
  list: SignedWorkstationKeyList,
  options: { rootKeyPem: string; orgId: string },
): WorkstationKeyListBody {
  let orgKey: { orgId: string; publicKeyPem: string };
  try {
    orgKey = verifyOrganizationKey(new Uint8Array(Buffer.from(list.certificate, 'base64')), options.rootKeyPem);
  } catch (error) {
    throw new WorkstationKeyListError(
      `The workstation key list is not signed by a key the trusted root key certifies: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (orgKey.orgId !== options.orgId)
    throw new WorkstationKeyListError(
      `The workstation key list is signed by the key of organization ${orgKey.orgId}, not of ${options.orgId}.`,
    );
  const signature = Buffer.from(list.signature, 'base64');
  const holds =
    signature.length === 64 &&
    verify(
      'sha256',
      signedBytes(list.body),
      { key: createPublicKey(orgKey.publicKeyPem), dsaEncoding: 'ieee-p1363' },
      signature,
    );
  if (!holds)
    throw new WorkstationKeyListError(
      "The workstation key list's signature does not hold: it was changed after the organization signed it.",
    );
  let body: WorkstationKeyListBody;
  try {
    body = workstationKeyListBodySchema.parse(JSON.parse(list.body));
  } catch {
    throw new WorkstationKeyListError('The workstation key list is signed but its body is not a key list.');
  }
  if (body.orgId !== options.orgId)
    throw new WorkstationKeyListError(
      `The workstation key list is of organization ${body.orgId}, not of ${options.orgId}.`,
    );
  return body;
}
