import { z } from 'zod';
import { containerSignerFromPem, generateContainerSigner, type ContainerSigner } from '../../../domain/files/work-package-container';
import type { SecretStore } from '../../../platform/secret-store';

/**
 * The key this workstation signs work packages and confirmation files with: an Ed25519 key made on
 * first use and kept with the other secrets (a 0600 file for the CLI and web mode, the OS keychain
 * in the desktop app). Only its public half leaves the workstation, inside every file it signs;
 * its key id is what a technician compares (or passes as --signer) when importing.
 */

export const PACKAGE_KEY_SECRET = 'work-package-signing-key';

const keptSchema = z.object({ algorithm: z.literal('ed25519'), privateKeyPem: z.string().min(1), createdAt: z.string() });

export async function loadOrCreatePackageSigner(secrets: SecretStore, now: () => number = Date.now): Promise<ContainerSigner> {
  const kept = await secrets.get(PACKAGE_KEY_SECRET);
  if (kept !== null) {
    const signer = readKept(kept);
    if (signer) return signer;
    // Not a usable key: kept under another name, never deleted, and a new one signs from now on.
    await secrets.set(`${PACKAGE_KEY_SECRET}.damaged-${new Date(now()).toISOString().replace(/:/g, '-')}`, kept);
  }
  const signer = generateContainerSigner();
  await secrets.set(PACKAGE_KEY_SECRET, JSON.stringify({ algorithm: 'ed25519', privateKeyPem: signer.privateKeyPem, createdAt: new Date(now()).toISOString() }));
  // Read back: when two processes made one at once, both sign with the one that was kept.
  return readKept((await secrets.get(PACKAGE_KEY_SECRET)) ?? '') ?? signer;
}

function readKept(text: string): ContainerSigner | undefined {
  try {
    return containerSignerFromPem(keptSchema.parse(JSON.parse(text)).privateKeyPem);
  } catch {
    return undefined;
  }
}
