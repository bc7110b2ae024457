import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { workPackageRefusalText } from '../../domain/work-package-refusal';
import { client, errorText, ProvisionerError } from '../api/client';
import { ActionButton } from '../components/ActionButton';
import { saveBase64File } from '../components/save-file';
import { useDateText } from '../components/use-date-text';
import { useTranslator } from '../i18n/I18nProvider';
import { notify } from '../stores/notices';
import { signedIn, useSession } from '../stores/session';

/**
 * Exports a configuration's work package (docs/work-packages.md): one signed file with everything
 * its devices need on a plant without network, saved as a download; the notice says until when it
 * is good, and the service root key's fingerprint a laptop never signed in needs to import it.
 */
export function WorkPackageButton({
  configurationId,
  configurationName,
}: {
  configurationId: string;
  configurationName: string;
}) {
  const [busy, setBusy] = useState(false);
  const { t } = useTranslation();
  const words = useTranslator();
  const dates = useDateText();
  const local = useSession((s) => signedIn(s.session)?.kind === 'local');
  const run = async () => {
    setBusy(true);
    try {
      const file = await client().call('packages.export', { configurationId });
      saveBase64File(file.fileName, file.contentBase64, 'application/zip');
      notify(
        'success',
        t('screens:workPackage.saved', {
          configuration: file.configurationName,
          fileName: file.fileName,
          count: file.deviceCount,
          expires: dates.dateTime(file.expiresAt),
          signer: file.signerKeyId,
          fingerprint: file.rootFingerprint,
        }),
      );
    } catch (err) {
      // A refusal the core sent as a code is said in the reader's language; anything else as it came.
      const refusal = err instanceof ProvisionerError ? err.workPackageRefusal : null;
      const error = refusal ? workPackageRefusalText(refusal, words) : errorText(err);
      notify('error', t('screens:workPackage.failed', { configuration: configurationName, error }));
    } finally {
      setBusy(false);
    }
  };
  // Greyed in the local workspace: the button's own text says why (issue 32), not only its tooltip,
  // which keeps the whole reason.
  return (
    <ActionButton
      variant="quiet"
      capability="files.download"
      busy={busy}
      disabledReason={local ? t('screens:workPackage.localReason') : null}
      onClick={() => void run()}
    >
      {/* One piece of text: the button's gap must not open around the hidden name. */}
      <span>
        {busy ? t('screens:workPackage.exporting') : t('screens:workPackage.button')}
        <span className="visually-hidden">
          {t('screens:workPackage.buttonFor', { configuration: configurationName })}
        </span>
        {local && !busy ? t('screens:workPackage.signInFirst') : null}
      </span>
    </ActionButton>
  );
}
