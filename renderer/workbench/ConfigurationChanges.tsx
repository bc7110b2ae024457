import type { ConfigurationChangesView } from '../../contract/index';
import { useQuery } from '../api/use-query';
import './workbench.css';

/**
 * Before an apply: what the device's next configuration file changes against the one it was last
 * confirmed with, parameter by parameter, in plain words ("ISM channel 12 → 14"). Read when opened,
 * and again when `version` changes (a job on the device finished).
 */
export function ConfigurationChanges({ serialNumber, version }: { serialNumber: string; version: string }) {
  const changes = useQuery('workbench.configurationChanges', { serialNumber }, true, version);
  const plan = changes.data;

  if (changes.error) return <p className="callout callout--bad">What an apply would change on {serialNumber} could not be read: {changes.error}</p>;
  // While it is read again, the last plan is not shown: it may no longer be what an apply would change.
  if (!plan || changes.loading) return <p className="muted">Comparing the configuration of {serialNumber}…</p>;
  return (
    <section className="config-changes" aria-label={`What applying the configuration changes on ${serialNumber}`}>
      <h3 className="job-timeline__title">Apply configuration on {serialNumber}: what changes</h3>
      <p className="muted small">{basisText(plan)}</p>
      {plan.inSync ? (
        <p>Already in sync: an apply would change nothing.</p>
      ) : plan.changes.length === 0 ? (
        <p>The same settings: an apply would change nothing.</p>
      ) : (
        <table className="table table--compact">
          <thead>
            <tr>
              <th scope="col">Setting</th>
              <th scope="col">Now</th>
              <th scope="col">After the apply</th>
            </tr>
          </thead>
          <tbody>
            {plan.changes.map((change) => (
              <tr key={change.field} data-field={change.field}>
                <td>{settingName(change)}</td>
                <td className="mono">{change.before}</td>
                <td className="mono strong">{change.after}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function basisText(plan: ConfigurationChangesView): string {
  const next = `the file it would get now (syncId ${plan.syncId})`;
  if (plan.appliedSyncId === null) return `No configuration was confirmed on this device yet: every setting of ${next} is new.`;
  if (plan.inSync) return `The device holds syncId ${plan.appliedSyncId}, the same as ${next}.`;
  if (plan.appliedFrom === null) return `The device holds syncId ${plan.appliedSyncId}, whose settings are not known here: every setting of ${next} is listed.`;
  return `The device holds syncId ${plan.appliedSyncId} (settings from the ${plan.appliedFrom === 'service' ? "service's record" : 'copy kept on this computer'}), compared with ${next}.`;
}

/** The sentence's subject: "CAN bitrate 500 kbit/s → 250 kbit/s" gives "CAN bitrate". */
function settingName(change: ConfigurationChangesView['changes'][number]): string {
  const suffix = ` ${change.before} → ${change.after}`;
  return change.text.endsWith(suffix) ? change.text.slice(0, -suffix.length) : change.text;
}
