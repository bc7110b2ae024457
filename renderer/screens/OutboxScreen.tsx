import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { client, errorText } from '../api/client';
import { ActionButton } from '../components/ActionButton';
import { ListTable } from '../components/ListTable';
import { saveFile } from '../components/save-file';
import { Badge, Callout, ScreenHeader } from '../components/misc';
import { useDateText } from '../components/use-date-text';
import { Ago } from '../components/DateText';
import { notify } from '../stores/notices';
import { useOutbox } from '../stores/outbox';
import { useTranslator } from '../i18n/I18nProvider';
import { confirmationSummaryText } from '../../domain/confirmation-summary';

/** Confirmations that have not reached the service yet, the recent log, and the support report. */
export function OutboxScreen() {
  const outbox = useOutbox((s) => s.outbox);
  const lines = useOutbox((s) => s.lines);
  const sending = useOutbox((s) => s.sending);
  const error = useOutbox((s) => s.error);
  const pagesBefore = useOutbox((s) => s.earlier.length);
  const { load, sendNow, nextPage, previousPage } = useOutbox.getState();
  const [exporting, setExporting] = useState(false);
  const { t } = useTranslation();
  const words = useTranslator();
  const dates = useDateText();

  useEffect(() => {
    void load();
  }, [load]);

  const exportReport = async () => {
    setExporting(true);
    try {
      const report = await client().call('support.report', {});
      saveFile(report.fileName, report.content, 'application/json');
      notify('success', t('screens:outbox.reportSaved', { fileName: report.fileName }));
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
        title={t('screens:outbox.title')}
        note={
          outbox
            ? outbox.pendingCount === 0
              ? t('screens:outbox.allSent')
              : t('screens:outbox.waiting', {
                  count: outbox.pendingCount,
                  since: dates.dateTime(outbox.oldestPendingSince),
                })
            : ' '
        }
      >
        <ActionButton
          variant="primary"
          capability="confirmations.send"
          busy={sending}
          disabledReason={outbox && outbox.pendingCount === 0 ? t('screens:outbox.nothingWaiting') : null}
          onClick={() => void sendNow()}
        >
          {sending ? t('screens:outbox.sending') : t('screens:outbox.sendNow')}
        </ActionButton>
        <button
          type="button"
          className="button button--secondary"
          aria-disabled={exporting}
          onClick={() => !exporting && void exportReport()}
        >
          {t('screens:outbox.exportReport')}
        </button>
      </ScreenHeader>
      {error ? <Callout tone="bad">{error}</Callout> : null}
      <h2 className="section-title">{t('screens:outbox.confirmations')}</h2>
      <ListTable
        compact
        columns={[
          t('screens:outbox.column.device'),
          t('screens:outbox.column.what'),
          t('screens:outbox.column.state'),
          t('screens:outbox.column.waitingSince'),
          { label: t('screens:outbox.column.attempts'), className: 'num' },
          t('screens:outbox.column.lastError'),
        ]}
        rows={outbox?.entries}
        // One page of the outbox at a time (issue 30): the core reads only that page's entries.
        pager={
          outbox && outbox.totalCount > 0
            ? {
                page: pagesBefore + 1,
                limit: outbox.limit,
                totalCount: outbox.totalCount,
                offset: outbox.offset,
                onPage: (page) => void (page > pagesBefore + 1 ? nextPage() : previousPage()),
              }
            : undefined
        }
        row={(e) => (
          <tr key={e.id}>
            <td className="mono" translate="no">
              {e.serialNumber}
            </td>
            {/* What is confirmed, in the reader's words; an older core's English line as it came. */}
            {e.confirms ? (
              <td>{confirmationSummaryText(e.confirms, words)}</td>
            ) : (
              <td translate="no" lang="en">
                {e.summary}
              </td>
            )}
            <td>
              {e.state === 'pending' ? (
                <Badge tone="warn">{t('screens:outbox.pending')}</Badge>
              ) : (
                <Badge tone="bad">{t('screens:outbox.rejected')}</Badge>
              )}
            </td>
            <td>
              <Ago iso={e.createdAt} now={now} />
            </td>
            <td className="num">{e.attempts}</td>
            <td className="small" translate="no" lang="en">
              {e.lastError ?? '—'}
            </td>
          </tr>
        )}
        empty={t('screens:outbox.empty')}
      />
      <h2 className="section-title">{t('screens:outbox.recentLog')}</h2>
      <ol className="log" aria-label={t('screens:outbox.recentLog')} tabIndex={0}>
        {lines.slice(-300).map((l) => (
          <li key={l.seq} className={`log__line log__line--${l.level}`} translate="no">
            <span className="log__time">{l.at.slice(11, 19)}</span>
            <span className="log__level">{l.level}</span>
            <span className="log__source">{l.source}</span>
            <span className="log__message">{l.message}</span>
          </li>
        ))}
        {lines.length === 0 ? <li className="muted">{t('screens:outbox.nothingLogged')}</li> : null}
      </ol>
    </section>
  );
}
