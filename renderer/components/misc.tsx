import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './long-words.css';
import type { Violation } from '../../domain/violations';
import { useTranslator } from '../i18n/I18nProvider';
import { violationText } from './violation-text';

export type Tone = 'neutral' | 'ok' | 'warn' | 'bad' | 'info';

export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return <span className={`badge badge--${tone}`}>{children}</span>;
}

/**
 * A screen's title, its actions, and a note under them in the muted tone every screen's note has.
 * `titleIsData`: the title is a record's name (a configuration's), not words to translate.
 */
export function ScreenHeader({
  title,
  children,
  note,
  titleIsData,
}: {
  title: string;
  children?: ReactNode;
  note?: ReactNode;
  titleIsData?: boolean;
}) {
  return (
    <header className="screen-header">
      <div className="screen-header__row">
        <h1 className="screen-header__title" translate={titleIsData ? 'no' : undefined}>
          {title}
        </h1>
        <div className="screen-header__actions">{children}</div>
      </div>
      {note ? <div className="screen-header__note muted">{note}</div> : null}
    </header>
  );
}

/**
 * Violations that no field on screen shows, listed in one box: as an alert, or in the warning tone
 * for rules that stop nothing (then `testId` names the box for tests).
 */
export function ViolationList({
  title,
  violations,
  tone = 'bad',
  testId,
}: {
  title: string;
  violations: readonly Violation[];
  tone?: 'bad' | 'warn';
  testId?: string;
}) {
  const words = useTranslator();
  if (violations.length === 0) return null;
  return (
    <div className={`callout callout--${tone}`} role={tone === 'bad' ? 'alert' : undefined} data-testid={testId}>
      <p className="callout__title">{title}</p>
      <ul className="callout__list">
        {violations.map((v, i) => (
          <li key={`${v.code}-${v.field}-${i}`}>
            {violationText(v, words)}{' '}
            <span className="muted mono" translate="no">
              ({v.code})
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Callout({ tone, title, children }: { tone: Tone; title?: string; children?: ReactNode }) {
  return (
    <div className={`callout callout--${tone}`} role={tone === 'bad' ? 'alert' : undefined}>
      {title ? <p className="callout__title">{title}</p> : null}
      {children}
    </div>
  );
}

export function EmptyRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <tr className="table__empty">
      <td colSpan={columns}>{children}</td>
    </tr>
  );
}

export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <p className="muted" role="status">
      {label ?? t('screens:loading')}
    </p>
  );
}
