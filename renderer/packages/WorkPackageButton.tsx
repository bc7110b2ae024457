import { useState } from 'react';
import { client, errorText } from '../api/client';
import { ActionButton } from '../components/ActionButton';
import { saveBase64File } from '../components/save-file';
import { dateTimeText } from '../format/units';
import { notify } from '../stores/notices';
import { signedIn, useSession } from '../stores/session';

/**
 * Exports a configuration's work package (docs/work-packages.md): one signed file with everything
 * its devices need on a plant without network, saved as a download; the notice says until when it
 * is good, and the service root key's fingerprint a laptop never signed in needs to import it.
 */
export function WorkPackageButton({ configurationId, configurationName }: { configurationId: string; configurationName: string }) {
  const [busy, setBusy] = useState(false);
  const local = useSession((s) => signedIn(s.session)?.kind === 'local');
  const run = async () => {
    setBusy(true);
    try {
      const file = await client().call('packages.export', { configurationId });
      saveBase64File(file.fileName, file.contentBase64, 'application/zip');
      notify(
        'success',
        `Work package of “${file.configurationName}” saved as ${file.fileName}: ${file.deviceCount} device${file.deviceCount === 1 ? '' : 's'}, good until ${dateTimeText(file.expiresAt)}. Signed by the organization's key ${file.signerKeyId}. A laptop never signed in imports it with the root key fingerprint ${file.rootFingerprint}: tell the technician by another road than the package.`,
      );
    } catch (err) {
      notify('error', `No work package for “${configurationName}”: ${errorText(err)}`);
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
      disabledReason={local ? 'The local workspace is on this computer only: sign in to the service to export a work package.' : null}
      onClick={() => void run()}
    >
      {/* One piece of text: the button's gap must not open around the hidden name. */}
      <span>
        {busy ? 'Exporting…' : 'Work package'}
        <span className="visually-hidden"> of {configurationName}</span>
        {local && !busy ? ': sign in first' : null}
      </span>
    </ActionButton>
  );
}
