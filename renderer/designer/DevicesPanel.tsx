import { useState } from 'react';
import type { Region } from '../../domain/enums';
import type { ConfigurationDeviceView, ConfigurationView } from '../../contract/index';
import { client, errorText } from '../api/client';
import { ActionButton } from '../components/ActionButton';
import { Badge, EmptyRow } from '../components/misc';
import { notify } from '../stores/notices';
import { useNavigation } from '../stores/navigation';
import { DeviceEditor } from './DeviceEditor';
import { ROLE_OPTIONS } from './options';

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
  const editingDevice = editing?.mode === 'edit' ? (configuration.devices.find((d) => d.serialNumber === editing.serialNumber) ?? null) : null;

  const remove = async (serialNumber: string) => {
    try {
      await client().call('configurations.removeDevice', { id: configuration.id, serialNumber });
      notify('success', `${serialNumber} removed from the configuration.`);
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
        <h2 id="devices-title">Devices in this configuration</h2>
        <ActionButton variant="secondary" capability="configurations.write" disabledReason={editing?.mode === 'add' ? 'The add form is open below.' : null} onClick={() => setEditing({ mode: 'add' })}>
          Add device
        </ActionButton>
      </div>
      <table className="table table--compact">
        <thead>
          <tr>
            <th scope="col">Serial number</th>
            <th scope="col">Type</th>
            <th scope="col">Role</th>
            <th scope="col">Interfaces</th>
            <th scope="col">IP address</th>
            <th scope="col" className="actions-col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {configuration.devices.map((d) => (
            <tr key={d.serialNumber} className={editingDevice?.serialNumber === d.serialNumber ? 'row--selected' : undefined}>
              <td className="mono">{d.serialNumber}</td>
              <td>
                <Badge>{d.deviceType}</Badge>
              </td>
              <td>{roleText(d)}</td>
              <td>{d.commInterface ? d.commInterface.split(',').join(', ') : <span className="muted">None</span>}</td>
              <td className="mono">{d.ipAddress ?? <span className="muted">—</span>}</td>
              <td className="actions-col">
                {removing === d.serialNumber ? (
                  <>
                    <ActionButton variant="danger" capability="configurations.write" onClick={() => void remove(d.serialNumber)}>
                      Remove
                    </ActionButton>
                    <button type="button" className="button button--quiet" onClick={() => setRemoving(null)}>
                      Keep
                    </button>
                  </>
                ) : (
                  <>
                    <button type="button" className="button button--quiet" onClick={() => setEditing({ mode: 'edit', serialNumber: d.serialNumber })} aria-label={`Edit ${d.serialNumber}`}>
                      Edit
                    </button>
                    <ActionButton variant="quiet" capability="configurations.write" onClick={() => setRemoving(d.serialNumber)}>
                      Remove…
                    </ActionButton>
                  </>
                )}
              </td>
            </tr>
          ))}
          {configuration.devices.length === 0 ? (
            <EmptyRow columns={6}>No devices yet. A configuration needs at least one sender and one receiver.</EmptyRow>
          ) : null}
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

function roleText(device: ConfigurationDeviceView): string {
  return ROLE_OPTIONS.find((o) => o.value === device.deviceConfigurationType)?.label ?? '—';
}
