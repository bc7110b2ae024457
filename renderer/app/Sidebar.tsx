import { useTranslation } from 'react-i18next';
import { SCREENS, useNavigation } from '../stores/navigation';
import { useOutbox } from '../stores/outbox';
import { useWorkbench } from '../stores/workbench';
import { screenName } from './screen-name';

export function Sidebar() {
  const { t } = useTranslation();
  const screen = useNavigation((s) => s.screen);
  const go = useNavigation((s) => s.go);
  const attached = useWorkbench((s) => s.devices.length);
  const pending = useOutbox((s) => s.outbox?.pendingCount ?? 0);
  const counts: Partial<Record<string, number>> = { workbench: attached, outbox: pending };
  return (
    <nav className="sidebar" aria-label={t('app:shell.screens')}>
      <ul className="sidebar__list">
        {SCREENS.map((id) => (
          <li key={id}>
            <button
              type="button"
              className={`sidebar__item${screen === id ? ' sidebar__item--current' : ''}`}
              aria-current={screen === id ? 'page' : undefined}
              data-screen={id}
              onClick={() => go(id)}
            >
              <span>{screenName(t, id)}</span>
              {counts[id] ? <span className="sidebar__count">{counts[id]}</span> : null}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
