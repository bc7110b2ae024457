import { useTranslation } from 'react-i18next';
import { Badge } from '../components/misc';
import { LanguageSelect } from '../i18n/LanguageSelect';
import { signedIn, useSession } from '../stores/session';
import { ThemeSelect } from '../theme/ThemeSelect';
import { useOutbox } from '../stores/outbox';
import { useNavigation } from '../stores/navigation';

/** Who is signed in, where, and with which role: always on screen. */
export function TopBar() {
  const { t } = useTranslation();
  const session = signedIn(useSession((s) => s.session));
  const signOut = useSession((s) => s.signOut);
  const pending = useOutbox((s) => s.outbox?.pendingCount ?? 0);
  const go = useNavigation((s) => s.go);
  if (!session) return null;
  const serviceTitle = session.rootFingerprint
    ? `${session.serviceUrl}\n${t('app:topbar.rootFingerprint', { fingerprint: session.rootFingerprint })}`
    : session.serviceUrl;
  return (
    <header className="topbar">
      <div className="topbar__brand" translate="no">
        Provisioner
      </div>
      <dl className="topbar__who" aria-label={t('app:topbar.signedIn')}>
        <div>
          <dt>{t('app:topbar.organization')}</dt>
          <dd data-testid="who-org" translate="no">
            {session.organizationName ?? session.orgId}
          </dd>
        </div>
        <div>
          <dt>{t('app:topbar.service')}</dt>
          {session.kind === 'local' ? (
            <dd className="topbar__service" title={serviceTitle}>
              {t('app:topbar.localWorkspace')}
            </dd>
          ) : (
            <dd className="topbar__service" title={serviceTitle} translate="no">
              {session.serviceUrl}
            </dd>
          )}
        </div>
        <div>
          <dt>{t('app:topbar.key')}</dt>
          <dd translate="no">{session.keyName ?? '—'}</dd>
        </div>
        <div>
          <dt>{t('app:topbar.role')}</dt>
          <dd data-testid="who-role" data-role={session.role}>
            <Badge tone="info">{t('app:roleName', { role: session.role })}</Badge>
          </dd>
        </div>
      </dl>
      <div className="topbar__actions">
        <LanguageSelect />
        <ThemeSelect />
        <button
          type="button"
          className={`button button--quiet${pending > 0 ? ' topbar__outbox--pending' : ''}`}
          onClick={() => go('outbox')}
        >
          {t('app:topbar.outboxPending', { count: pending })}
        </button>
        <button type="button" className="button button--secondary" onClick={() => void signOut(false)}>
          {t('app:topbar.signOut')}
        </button>
      </div>
    </header>
  );
}
