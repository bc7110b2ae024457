import { join } from 'node:path';
import { FileSecretStore, type SecretStore } from '../../../platform/secret-store';
import type { QuarantinedFile } from '../../../platform/quarantine';
import { LEDGER_KEY_SECRET } from './ledger-key';
import { Ledger } from './ledger';

/**
 * The ledger of a data directory: `<dataDir>/ledger/`. Its key is kept with the host's other
 * secrets: the secret store given (the desktop app's is the OS key store, through Electron's
 * safeStorage), or else the data directory's 0600 `secrets.json`, where the CLI keeps its own
 * login too. A key an earlier version left in that file moves to the given store on first use, so
 * the workstation keeps signing with the key its earlier entries name.
 */
export function openWorkstationLedger(
  dataDir: string,
  onQuarantine?: (file: QuarantinedFile) => void,
  secrets?: SecretStore,
): Ledger {
  const file = new FileSecretStore(join(dataDir, 'secrets.json'), onQuarantine);
  return new Ledger({
    dir: join(dataDir, 'ledger'),
    secrets: secrets ? adoptingKeyFrom(file, secrets) : file,
    onQuarantine,
  });
}

/** The store, which takes over the ledger key from the file the first time it is asked for it. */
function adoptingKeyFrom(file: SecretStore, store: SecretStore): SecretStore {
  return {
    get: async (name) => {
      const kept = await store.get(name);
      if (kept !== null || name !== LEDGER_KEY_SECRET) return kept;
      const left = await file.get(name);
      if (left === null) return null;
      await store.set(name, left);
      await file.delete(name);
      return left;
    },
    set: (name, value) => store.set(name, value),
    delete: (name) => store.delete(name),
  };
}
