import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ConfigurationChangesView } from '../../contract/index';
import { useQuery } from '../api/use-query';
import { changeText, changeValueText } from '../../domain/configuration-diff';
import { fieldLabel } from '../../domain/field-labels';
import type { Words } from '../../domain/domain-words';
import { useTranslator } from '../i18n/I18nProvider';
import './workbench.css';

/**
 * Before an apply: what the device's next configuration file changes against the one it was last
 * confirmed with, parameter by parameter, in plain words ("ISM channel 12 → 14"). Read when opened,
 * and again when `version` changes (a job on the device finished).
 */
export function ConfigurationChanges({ serialNumber, version }: { serialNumber: string; version: string }) {
  const changes = useQuery('workbench.configurationChanges', { serialNumber }, true, version);
  const plan = changes.data;
  const { t } = useTranslation();
  const words = useTranslator();

  if (changes.error)
    return (
      <p className="callout callout--bad">
        {t('workbench:changes.unreadable', { serial: serialNumber, error: changes.error })}
      </p>
    );
  // While it is read again, the last plan is not shown: it may no longer be what an apply would change.
  if (!plan || changes.loading)
    return <p className="muted">{t('workbench:changes.comparing', { serial: serialNumber })}</p>;
  return (
    <section className="config-changes" aria-label={t('workbench:changesLabel', { name: serialNumber })}>
      <h3 className="job-timeline__title">{t('workbench:changes.title', { serial: serialNumber })}</h3>
      <p className="muted small">{basisText(t, plan)}</p>
      {plan.inSync ? (
        <p>{t('workbench:changes.inSync')}</p>
      ) : plan.changes.length === 0 ? (
        <p>{t('workbench:changes.sameSettings')}</p>
      ) : (
        <table className="table table--compact">
          <thead>
            <tr>
              <th scope="col">{t('workbench:changes.setting')}</th>
              <th scope="col">{t('workbench:changes.now')}</th>
              <th scope="col">{t('workbench:changes.after')}</th>
            </tr>
          </thead>
          <tbody>
            {plan.changes.map((change) => (
              <tr key={change.field} data-field={change.field}>
                <td>{settingName(change, words)}</td>
                <td className="mono" translate="no">
                  {changeValueText(change.before, words)}
                </td>
                <td className="mono strong" translate="no">
                  {changeValueText(change.after, words)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function basisText(t: TFunction, plan: ConfigurationChangesView): string {
  const next = plan.syncId;
  if (plan.appliedSyncId === null) return t('workbench:changes.basis.none', { next });
  if (plan.inSync) return t('workbench:changes.basis.same', { applied: plan.appliedSyncId, next });
  if (plan.appliedFrom === null) return t('workbench:changes.basis.unknown', { applied: plan.appliedSyncId, next });
  return t('workbench:changes.basis.compared', {
    applied: plan.appliedSyncId,
    next,
    from: plan.appliedFrom === 'service' ? 'service' : 'copy',
  });
}

/**
 * The row's name: a setting's label ("CAN bitrate"; "Peer EPC000102: Role" for a peer's), or the
 * whole line for a peer added or removed and the configuration set or removed, in the reader's
 * words. From an older core (no subject): the English line without its values.
 */
function settingName(change: ConfigurationChangesView['changes'][number], words: Words): string {
  const { subject } = change;
  if (subject?.kind === 'setting') {
    const name = fieldLabel(subject.key, words);
    return subject.peer === null ? name : words.t('domain:change.ofPeer', { peer: subject.peer, change: name });
  }
  if (subject) return changeText({ ...change, subject }, words);
  const suffix = ` ${change.before} → ${change.after}`;
  return change.text.endsWith(suffix) ? change.text.slice(0, -suffix.length) : change.text;
}
