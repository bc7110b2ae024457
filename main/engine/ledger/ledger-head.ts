import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { z } from 'zod';
import type { LedgerLine } from '../../../domain/ledger';
import type { BrokenLink } from '../../../domain/ledger';

/**
 * The local ledger's head (how many entries, the last one's hash), kept in a second place besides
 * the ledger file: the secret store (the OS key store in the desktop app, the 0600 secrets file for
 * the CLI), signed by the ledger key. Entries cut from the end of the file leave a chain that holds
 * link by link; only the head kept elsewhere shows that something is missing, offline.
 */

export const LEDGER_HEAD_SECRET = 'ledger-head';
const HEAD_FORMAT = 'provisioner-ledger-head/1';

export interface LedgerHead {
  seq: number;
  hash: string;
}

const sealedSchema = z.object({
  format: z.literal(HEAD_FORMAT),
  seq: z.number().int().min(1),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  signature: z.string().min(1),
});

function signedBytes(head: LedgerHead): Buffer {
  return Buffer.from(JSON.stringify([HEAD_FORMAT, head.seq, head.hash]));
}

export function sealLedgerHead(head: LedgerHead, privateKeyPem: string): z.infer<typeof sealedSchema> {
  return {
    format: HEAD_FORMAT,
    ...head,
    signature: sign(null, signedBytes(head), createPrivateKey(privateKeyPem)).toString('base64'),
  };
}

/** The head, when its signature by `signerKey` (SPKI DER base64) holds; otherwise why not. */
export function openLedgerHead(text: string, signerKey: string): LedgerHead | { fault: string } {
  let sealed: z.infer<typeof sealedSchema>;
  try {
    sealed = sealedSchema.parse(JSON.parse(text));
  } catch {
    return { fault: 'the sealed ledger head is not readable' };
  }
  const key = createPublicKey({ key: Buffer.from(signerKey, 'base64'), format: 'der', type: 'spki' });
  const head = { seq: sealed.seq, hash: sealed.hash };
  if (!verify(null, signedBytes(head), key, Buffer.from(sealed.signature, 'base64')))
    return { fault: "the sealed ledger head is not signed by this workstation's ledger key" };
  return head;
}

/**
 * Where the file falls short of the sealed head: the entry the head names is missing (cut from the
 * end) or is another one. A file longer than the head is not a fault (a crash between the append
 * and the head's update leaves the head one behind).
 */
export function headFault(lines: readonly LedgerLine[], head: LedgerHead | { fault: string }): BrokenLink | undefined {
  const entries = lines.flatMap((line) => ('entry' in line ? [{ line: line.line, entry: line.entry }] : []));
  const last = entries.at(-1);
  if ('fault' in head) return { line: last?.line ?? 0, reason: head.fault };
  const named = entries.find((item) => item.entry.seq === head.seq);
  if (!named) {
    return {
      line: (last?.line ?? 0) + 1,
      seq: head.seq,
      hash: head.hash,
      reason: `the sealed head says the ledger reached entry ${head.seq} (hash ${head.hash.slice(0, 12)}…), but the file ends at entry ${last?.entry.seq ?? 0}: entries were cut from the end`,
    };
  }
  if (named.entry.hash !== head.hash) {
    return {
      line: named.line,
      seq: head.seq,
      hash: named.entry.hash,
      reason: `the sealed head names entry ${head.seq} with hash ${head.hash.slice(0, 12)}…, the file's entry ${head.seq} has ${named.entry.hash.slice(0, 12)}…: the end of the ledger was replaced`,
    };
  }
  return undefined;
}
