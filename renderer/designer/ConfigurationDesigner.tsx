import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConfigurationStatusView, ConfigurationView } from '../../contract/index';
import type { Violation } from '../../domain/violations';
import { client, errorText } from '../api/client';
import { ActionButton } from '../components/ActionButton';
import { Badge, Callout, Loading, ScreenHeader } from '../components/misc';
import { useDateText } from '../components/use-date-text';
import { useNavigation } from '../stores/navigation';
import { notify } from '../stores/notices';
import { signedIn, useSession } from '../stores/session';
import { DevicesPanel } from './DevicesPanel';
import { SettingsForm } from './SettingsForm';
import { StatusPanel } from './StatusPanel';
import { TopologyView } from './TopologyView';

/** One configuration: its settings, its devices, and what the service says of it. */
export function ConfigurationDesigner({ id }: { id: string }) {
  const back = useNavigation((s) => s.openConfiguration);
  const region = signedIn(useSession((s) => s.session))?.region ?? 'NA';
  const [configuration, setConfiguration] = useState<ConfigurationView | null>(null);
  const [status, setStatus] = useState<ConfigurationStatusView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [unsaved, setUnsaved] = useState<{ violations: readonly Violation[] } | null>(null);
  const { t } = useTranslation();
  const dates = useDateText();

  const reload = useCallback(async () => {
    try {
      const [c, s] = await Promise.all([
        client().call('configurations.get', { id }),
        client().call('configurations.status', { id }),
      ]);
      setConfiguration(c);
      setStatus(s);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, [id]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const remove = async () => {
    try {
      await client().call('configurations.delete', { id });
      notify('success', t('designer:deleted', { name: configuration?.name ?? id }));
      back(null);
    } catch (err) {
      notify('error', errorText(err));
    }
  };

  if (!configuration) {
    return (
      <section className="screen">
        <BackLink onBack={() => back(null)} />
        {error ? (
          <Callout tone="bad" title={t('designer:openFailed')}>
            {error}
          </Callout>
        ) : (
          <Loading />
        )}
      </section>
    );
  }

  return (
    <section className="screen designer" aria-labelledby="designer-title">
      <BackLink onBack={() => back(null)} />
      <ScreenHeader
        title={configuration.name}
        titleIsData
        note={
          <>
            {t('designer:lastEdited', { at: dates.dateTime(configuration.lastEditedAt) })} ·{' '}
            {t('designer:deviceCount', { count: configuration.devices.length })} ·{' '}
            {status ? (
              status.complete ? (
                <Badge tone="ok">{t('designer:complete')}</Badge>
              ) : (
                <Badge tone="warn">{t('designer:problemsToFix', { count: status.violations.length })}</Badge>
              )
            ) : null}
            {unsaved ? (
              <>
                {' '}
                <Badge tone="warn">{t('designer:unsavedChanges')}</Badge>
              </>
            ) : null}
          </>
        }
      >
        {confirmDelete ? (
          <>
            <span className="muted">{t('designer:deleteQuestion')}</span>
            <ActionButton variant="danger" capability="configurations.write" onClick={() => void remove()}>
              {t('designer:delete')}
            </ActionButton>
            <button type="button" className="button button--quiet" onClick={() => setConfirmDelete(false)}>
              {t('designer:keep')}
            </button>
          </>
        ) : (
          <ActionButton variant="quiet" capability="configurations.write" onClick={() => setConfirmDelete(true)}>
            {t('designer:deleteEllipsis')}
          </ActionButton>
        )}
      </ScreenHeader>
      {error ? <Callout tone="bad">{error}</Callout> : null}
      <div className="designer__grid">
        <div className="designer__main">
          <TopologyView configuration={configuration} status={status} />
          <SettingsForm
            configuration={configuration}
            region={region}
            onSaved={() => void reload()}
            onUnsavedChange={setUnsaved}
          />
          <DevicesPanel configuration={configuration} region={region} onChanged={() => void reload()} />
        </div>
        <aside className="designer__side">
          <StatusPanel
            configuration={configuration}
            status={status}
            unsaved={unsaved}
            onRefresh={() => void reload()}
          />
        </aside>
      </div>
    </section>
  );
}

function BackLink({ onBack }: { onBack(): void }) {
  const { t } = useTranslation();
  return (
    <button type="button" className="link back-link" onClick={onBack}>
      {t('designer:back')}
    </button>
  );
}
