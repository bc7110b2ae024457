import { SCREENS, useNavigation } from '../stores/navigation';
import { useOutbox } from '../stores/outbox';
import { useWorkbench } from '../stores/workbench';

export function Sidebar() {
  const screen = useNavigation((s) => s.screen);
  const go = useNavigation((s) => s.go);
  const attached = useWorkbench((s) => s.devices.length);
  const pending = useOutbox((s) => s.outbox?.pendingCount ?? 0);
  const counts: Partial<Record<string, number>> = { workbench: attached, outbox: pending };
  return (
    <nav className="sidebar" aria-label="Screens">
      <ul className="sidebar__list">
        {SCREENS.map((s) => (
          <li key={s.id}>
            <button
              type="button"
              className={`sidebar__item${screen === s.id ? ' sidebar__item--current' : ''}`}
              aria-current={screen === s.id ? 'page' : undefined}
              onClick={() => go(s.id)}
            >
              <span>{s.label}</span>
              {counts[s.id] ? <span className="sidebar__count">{counts[s.id]}</span> : null}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
