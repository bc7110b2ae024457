import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { z } from 'zod';
import type { LedgerLine } from '../../../domain/ledger';
import { brokenBy, type BrokenLink } from '../../../domain/ledger';
import { ledgerLinkFaultText, shortHash, type LedgerLinkFault } from '../../../domain/ledger-link-fault';

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
export function openLedgerHead(text: string, signerKey: string): LedgerHead | SealedHeadFault {
  let sealed: z.infer<typeof sealedSchema>;
  try {
    sealed = sealedSchema.parse(JSON.parse(text));
  } catch {
    return headFaultOf({ kind: 'headUnreadable' });
  }
  const key = createPublicKey({ key: Buffer.from(signerKey, 'base64'), format: 'der', type: 'spki' });
  const head = { seq: sealed.seq, hash: sealed.hash };
  if (!verify(null, signedBytes(head), key, Buffer.from(sealed.signature, 'base64')))
    return headFaultOf({ kind: 'headNotSigned' });
  return head;
}

/** Why the sealed head cannot be trusted: in English, and as a code (`why`) for the reader's language. */
export interface SealedHeadFault {
  fault: string;
  why?: LedgerLinkFault;
}

function headFaultOf(why: LedgerLinkFault): SealedHeadFault {
  return { fault: ledgerLinkFaultText(why), why };
}

/**
 * Where the file falls short of the sealed head: the entry the head names is missing (cut from the
 * end) or is another one. A file longer than the head is not a fault (a crash between the append
 * and the head's update leaves the head one behind).
 */
export function headFault(lines: readonly LedgerLine[], head: LedgerHead | SealedHeadFault): BrokenLink | undefined {
  const entries = lines.flatMap((line) => ('entry' in line ? [{ line: line.line, entry: line.entry }] : []));
  const last = entries.at(-1);
  if ('fault' in head) return { line: last?.line ?? 0, reason: head.fault, ...(head.why ? { why: head.why } : {}) };
  const named = entries.find((item) => item.entry.seq === head.seq);
  if (!named) {
    return brokenBy(
      { line: (last?.line ?? 0) + 1, seq: head.seq, hash: head.hash },
      endCut(head, last?.entry.seq ?? 0),
    );
  }
  if (named.entry.hash !== head.hash) {
    return brokenBy({ line: named.line, seq: head.seq, hash: named.entry.hash }, endReplaced(head, named.entry.hash));
  }
  return undefined;
}

/** The file ends before the entry the sealed head names: entries were cut from the end. */
export function endCut(head: LedgerHead, endsAt: number): LedgerLinkFault {
  return { kind: 'endCut', headSeq: head.seq, headHash: shortHash(head.hash), endsAt };
}

/** The file's entry of the head's number is another one: the end was replaced. */
export function endReplaced(head: LedgerHead, fileHash: string): LedgerLinkFault {
  return { kind: 'endReplaced', seq: head.seq, headHash: shortHash(head.hash), fileHash: shortHash(fileHash) };
}
