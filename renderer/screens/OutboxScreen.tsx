import { useEffect, useState } from 'react';
import { client, errorText } from '../api/client';
import { ActionButton } from '../components/ActionButton';
import { ListTable } from '../components/ListTable';
import { saveFile } from '../components/save-file';
import { Badge, Callout, ScreenHeader } from '../components/misc';
import { agoText, dateTimeText } from '../format/units';
import { notify } from '../stores/notices';
import { useOutbox } from '../stores/outbox';

/** Confirmations that have not reached the service yet, the recent log, and the support report. */
export function OutboxScreen() {
  const outbox = useOutbox((s) => s.outbox);
  const lines = useOutbox((s) => s.lines);
  const sending = useOutbox((s) => s.sending);
  const error = useOutbox((s) => s.error);
  const { load, sendNow } = useOutbox.getState();
  const [exporting, setExporting] = useState(false);

  useEffect(() => {
    void load();
  }, [load]);

  const exportReport = async () => {
    setExporting(true);
    try {
      const report = await client().call('support.report', {});
      saveFile(report.fileName, report.content, 'application/json');
      notify('success', `Support report saved as ${report.fileName}.`);
    } catch (err) {
      notify('error', errorText(err));
    } finally {
      setExporting(false);
    }
  };

  const now = Date.now();
  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenHeader
        title="Outbox & logs"
        note={
          outbox
            ? outbox.pendingCount === 0
              ? 'Every confirmation has reached the service.'
              : `${outbox.pendingCount} confirmation${outbox.pendingCount === 1 ? '' : 's'} waiting since ${dateTimeText(outbox.oldestPendingSince)}.`
            : ' '
        }
      >
        <ActionButton variant="primary" capability="confirmations.send" busy={sending} disabledReason={outbox && outbox.pendingCount === 0 ? 'Nothing is waiting.' : null} onClick={() => void sendNow()}>
          {sending ? 'Sending…' : 'Send now'}
        </ActionButton>
        <button type="button" className="button button--secondary" aria-disabled={exporting} onClick={() => !exporting && void exportReport()}>
          Export support report
        </button>
      </ScreenHeader>
      {error ? <Callout tone="bad">{error}</Callout> : null}
      <h2 className="section-title">Confirmations</h2>
      <ListTable
        compact
        columns={['Device', 'What', 'State', 'Waiting since', { label: 'Attempts', className: 'num' }, 'Last error']}
        rows={outbox?.entries}
        row={(e) => (
          <tr key={e.id}>
            <td className="mono">{e.serialNumber}</td>
            <td>{e.summary}</td>
            <td>{e.state === 'pending' ? <Badge tone="warn">Pending</Badge> : <Badge tone="bad">Rejected</Badge>}</td>
            <td>{agoText(e.createdAt, now)}</td>
            <td className="num">{e.attempts}</td>
            <td className="small">{e.lastError ?? '—'}</td>
          </tr>
        )}
        empty="The outbox is empty."
      />
      <h2 className="section-title">Recent log</h2>
      <ol className="log" aria-label="Recent log" tabIndex={0}>
        {lines.slice(-300).map((l) => (
          <li key={l.seq} className={`log__line log__line--${l.level}`}>
            <span className="log__time">{l.at.slice(11, 19)}</span>
            <span className="log__level">{l.level}</span>
            <span className="log__source">{l.source}</span>
            <span className="log__message">{l.message}</span>
          </li>
        ))}
        {lines.length === 0 ? <li className="muted">Nothing logged yet.</li> : null}
      </ol>
    </section>
  );
}
