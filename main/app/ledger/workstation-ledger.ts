import { join } from 'node:path';
import { FileSecretStore } from '../../../platform/secret-store';
import type { QuarantinedFile } from '../../../platform/quarantine';
import { Ledger } from './ledger';

/**
 * The ledger of a data directory: `<dataDir>/ledger/`, signed with the key kept in that
 * directory's secrets file, the one web mode keeps its secrets in. The desktop app and the CLI
 * share a data directory, so they write one ledger with one key.
 */
export function openWorkstationLedger(dataDir: string, onQuarantine?: (file: QuarantinedFile) => void): Ledger {
  return new Ledger({ dir: join(dataDir, 'ledger'), secrets: new FileSecretStore(join(dataDir, 'secrets.json'), onQuarantine), onQuarantine });
}
