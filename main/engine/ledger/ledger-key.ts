import { generateKeyPairSync } from 'node:crypto';
import { z } from 'zod';
import { ledgerSignerKeyOf } from '../../../domain/ledger';
import type { SecretStore } from '../../../platform/secret-store';
import type { QuarantinedFile } from '../../../platform/quarantine';

/**
 * The workstation's ledger key: an Ed25519 key pair made on first use and kept with the other
 * secrets (the secret store: a 0600 file for the CLI and web mode, the OS keychain in the desktop
 * app). Only its public half leaves the workstation, inside every entry it signs.
 */

export const LEDGER_KEY_SECRET = 'ledger-signing-key';

const keptKeySchema = z.object({
  algorithm: z.literal('ed25519'),
  privateKeyPem: z.string().min(1),
  createdAt: z.string(),
});

export interface LedgerKey {
  privateKeyPem: string;
  /** SPKI DER, base64: what entries carry as signerKey. */
  signerKey: string;
}

/**
 * The kept key, or a new one. Callers hold the ledger lock, so two processes on first use do not
 * each make their own. A kept value that is not a usable key is set aside under another name
 * (never deleted, like a quarantined file) and reported; a new key is made, and the entries it
 * signs say so by their signer key.
 */
export async function loadOrCreateLedgerKey(
  secrets: SecretStore,
  options: { now: () => number; onQuarantine?: (file: QuarantinedFile) => void },
): Promise<LedgerKey> {
  const kept = await secrets.get(LEDGER_KEY_SECRET);
  if (kept !== null) {
    const key = readKeptKey(kept);
    if (key) return key;
    const at = new Date(options.now()).toISOString();
    const aside = `${LEDGER_KEY_SECRET}.damaged-${at.replace(/:/g, '-')}`;
    await secrets.set(aside, kept);
    options.onQuarantine?.({
      from: `secret ${LEDGER_KEY_SECRET}`,
      path: `secret ${aside}`,
      reason: 'the ledger signing key is damaged; a new one signs from now on',
      at,
    });
  }
  const { privateKey } = generateKeyPairSync('ed25519');
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  await secrets.set(
    LEDGER_KEY_SECRET,
    JSON.stringify({ algorithm: 'ed25519', privateKeyPem, createdAt: new Date(options.now()).toISOString() }),
  );
  return { privateKeyPem, signerKey: ledgerSignerKeyOf(privateKeyPem) };
}

function readKeptKey(text: string): LedgerKey | undefined {
  try {
    const kept = keptKeySchema.parse(JSON.parse(text));
    return { privateKeyPem: kept.privateKeyPem, signerKey: ledgerSignerKeyOf(kept.privateKeyPem) };
  } catch {
    return undefined;
  }
}
