import { useState } from 'react';
import { client, errorText } from '../api/client';
import { ActionButton } from '../components/ActionButton';
import { saveBase64File } from '../components/save-file';
import { notify } from '../stores/notices';

/**
 * Saves a configuration's commissioning report as a PDF (docs/ledger.md): per device its firmware,
 * image hash and signer, syncId, who applied it when, the function test and the ledger hashes.
 */
export function CommissioningReportButton({ configurationId, configurationName }: { configurationId: string; configurationName: string }) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const file = await client().call('reports.commissioning', { configurationId, format: 'pdf' });
      saveBase64File(file.fileName, file.contentBase64, file.mediaType);
      notify(
        file.ledgerIntact ? 'success' : 'error',
        `Commissioning report of “${file.configurationName}” saved as ${file.fileName}: ${file.commissionedCount} of ${file.deviceCount} device${file.deviceCount === 1 ? '' : 's'} commissioned.` +
          (file.ledgerIntact ? '' : ' The ledger is broken: the report says where.'),
      );
    } catch (err) {
      notify('error', `No commissioning report for “${configurationName}”: ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <ActionButton variant="quiet" busy={busy} onClick={() => void run()}>
      {busy ? 'Making report…' : 'Report'}
      <span className="visually-hidden"> of {configurationName}</span>
    </ActionButton>
  );
}
