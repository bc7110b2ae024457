import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Region } from '../../domain/enums';
import type { ConfigurationView } from '../../contract/index';
import { client, errorText } from '../api/client';
import { ActionButton } from '../components/ActionButton';
import { Badge, EmptyRow } from '../components/misc';
import { notify } from '../stores/notices';
import { useNavigation } from '../stores/navigation';
import { DeviceEditor } from './DeviceEditor';
import { deviceRoleLabel } from '../../domain/choice-labels';
import { useTranslator } from '../i18n/I18nProvider';

interface Props {
  configuration: ConfigurationView;
  region: Region;
  onChanged(): void;
}

type Editing = { mode: 'add' } | { mode: 'edit'; serialNumber: string } | null;

export function DevicesPanel({ configuration, region, onChanged }: Props) {
  // Sent here from the Workbench to add a device: the add form opens with it.
  const [editing, setEditing] = useState<Editing>(useNavigation.getState().deviceToAdd ? { mode: 'add' } : null);
  const [removing, setRemoving] = useState<string | null>(null);
  const { t } = useTranslation();
  const words = useTranslator();
  const editingDevice =
    editing?.mode === 'edit'
      ? (configuration.devices.find((d) => d.serialNumber === editing.serialNumber) ?? null)
      : null;

  const remove = async (serialNumber: string) => {
    try {
      await client().call('configurations.removeDevice', { id: configuration.id, serialNumber });
      notify('success', t('designer:devices.removed', { serial: serialNumber }));
      setRemoving(null);
      if (editing?.mode === 'edit' && editing.serialNumber === serialNumber) setEditing(null);
      onChanged();
    } catch (err) {
      notify('error', errorText(err));
    }
  };

  return (
    <section className="panel" aria-labelledby="devices-title">
      <div className="panel__header">
        <h2 id="devices-title">{t('designer:devices.title')}</h2>
        <ActionButton
          variant="secondary"
          capability="configurations.write"
          disabledReason={editing?.mode === 'add' ? t('designer:devices.addOpen') : null}
          onClick={() => setEditing({ mode: 'add' })}
        >
          {t('designer:devices.add')}
        </ActionButton>
      </div>
      <table className="table table--compact">
        <thead>
          <tr>
            <th scope="col">{t('designer:devices.column.serialNumber')}</th>
            <th scope="col">{t('designer:devices.column.type')}</th>
            <th scope="col">{t('designer:devices.column.role')}</th>
            <th scope="col">{t('designer:devices.column.interfaces')}</th>
            <th scope="col">{t('designer:devices.column.ipAddress')}</th>
            <th scope="col" className="actions-col">
              <span className="visually-hidden">{t('designer:devices.column.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {configuration.devices.map((d) => (
            <tr
              key={d.serialNumber}
              className={editingDevice?.serialNumber === d.serialNumber ? 'row--selected' : undefined}
            >
              <td className="mono" translate="no">
                {d.serialNumber}
              </td>
              <td translate="no">
                <Badge>{d.deviceType}</Badge>
              </td>
              <td>{d.deviceConfigurationType ? deviceRoleLabel(d.deviceConfigurationType, words) : '—'}</td>
              <td>
                {d.commInterface ? (
                  <span translate="no">{d.commInterface.split(',').join(', ')}</span>
                ) : (
                  <span className="muted">{t('designer:devices.none')}</span>
                )}
              </td>
              <td className="mono" translate="no">
                {d.ipAddress ?? <span className="muted">—</span>}
              </td>
              <td className="actions-col">
                {removing === d.serialNumber ? (
                  <>
                    <ActionButton
                      variant="danger"
                      capability="configurations.write"
                      onClick={() => void remove(d.serialNumber)}
                    >
                      {t('designer:devices.remove')}
                    </ActionButton>
                    <button type="button" className="button button--quiet" onClick={() => setRemoving(null)}>
                      {t('designer:keep')}
                    </button>
                  </>
                ) : (
                  <>
                    <button
                      type="button"
                      className="button button--quiet"
                      onClick={() => setEditing({ mode: 'edit', serialNumber: d.serialNumber })}
                      aria-label={t('designer:devices.editNamed', { serial: d.serialNumber })}
                    >
                      {t('designer:devices.edit')}
                    </button>
                    <ActionButton
                      variant="quiet"
                      capability="configurations.write"
                      onClick={() => setRemoving(d.serialNumber)}
                    >
                      {t('designer:devices.removeEllipsis')}
                    </ActionButton>
                  </>
                )}
              </td>
            </tr>
          ))}
          {configuration.devices.length === 0 ? <EmptyRow columns={6}>{t('designer:devices.empty')}</EmptyRow> : null}
        </tbody>
      </table>
      {editing ? (
        <DeviceEditor
          key={editing.mode === 'edit' ? editing.serialNumber : 'add'}
          mode={editing.mode}
          configuration={configuration}
          device={editingDevice}
          region={region}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            onChanged();
          }}
        />
      ) : null}
    </section>
  );
}
