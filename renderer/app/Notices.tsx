import { useTranslation } from 'react-i18next';
import { useNotices } from '../stores/notices';

/** An overlay in a corner: notices never push the page's content around. */
export function Notices() {
  const { t } = useTranslation();
  const notices = useNotices((s) => s.notices);
  const dismiss = useNotices((s) => s.dismiss);
  return (
    <div className="notices" aria-live="polite" aria-relevant="additions">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice--${n.tone}`} role={n.tone === 'error' ? 'alert' : 'status'}>
          <span className="notice__text">{n.text}</span>
          <button
            type="button"
            className="notice__close"
            aria-label={t('app:notices.dismiss')}
            onClick={() => dismiss(n.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
