import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { client, errorText } from '../api/client';
import { ActionButton } from '../components/ActionButton';
import { saveBase64File } from '../components/save-file';
import { notify } from '../stores/notices';

/**
 * Saves a configuration's commissioning report as a PDF (docs/ledger.md): per device its firmware,
 * image hash and signer, syncId, who applied it when, the function test and the ledger hashes.
 */
export function CommissioningReportButton({
  configurationId,
  configurationName,
}: {
  configurationId: string;
  configurationName: string;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const file = await client().call('reports.commissioning', { configurationId, format: 'pdf' });
      saveBase64File(file.fileName, file.contentBase64, file.mediaType);
      notify(
        file.ledgerIntact ? 'success' : 'error',
        t('workbench:report.saved', {
          name: file.configurationName,
          file: file.fileName,
          commissioned: file.commissionedCount,
          count: file.deviceCount,
          ledger: file.ledgerIntact ? 'intact' : 'broken',
        }),
      );
    } catch (err) {
      notify('error', t('workbench:report.failed', { name: configurationName, error: errorText(err) }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <ActionButton variant="quiet" busy={busy} onClick={() => void run()}>
      {busy ? t('workbench:report.making') : t('workbench:report.button')}
      <span className="visually-hidden"> {t('workbench:report.of', { name: configurationName })}</span>
    </ActionButton>
  );
}
