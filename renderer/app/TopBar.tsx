import { Badge } from '../components/misc';
import { signedIn, useSession } from '../stores/session';
import { useOutbox } from '../stores/outbox';
import { useNavigation } from '../stores/navigation';

/** Who is signed in, where, and with which role: always on screen. */
export function TopBar() {
  const session = signedIn(useSession((s) => s.session));
  const signOut = useSession((s) => s.signOut);
  const pending = useOutbox((s) => s.outbox?.pendingCount ?? 0);
  const go = useNavigation((s) => s.go);
  if (!session) return null;
  return (
    <header className="topbar">
      <div className="topbar__brand">Provisioner</div>
      <dl className="topbar__who" aria-label="Signed in">
        <div>
          <dt>Organization</dt>
          <dd data-testid="who-org">{session.organizationName ?? session.orgId}</dd>
        </div>
        <div>
          <dt>Service</dt>
          <dd className="topbar__service" title={session.rootFingerprint ? `${session.serviceUrl}\nRoot key fingerprint: ${session.rootFingerprint}` : session.serviceUrl}>
            {session.kind === 'local' ? 'Local workspace' : session.serviceUrl}
          </dd>
        </div>
        <div>
          <dt>Key</dt>
          <dd>{session.keyName ?? '—'}</dd>
        </div>
        <div>
          <dt>Role</dt>
          <dd data-testid="who-role">
            <Badge tone="info">{session.role}</Badge>
          </dd>
        </div>
      </dl>
      <div className="topbar__actions">
        <button type="button" className={`button button--quiet${pending > 0 ? ' topbar__outbox--pending' : ''}`} onClick={() => go('outbox')}>
          Outbox: {pending} pending
        </button>
        <button type="button" className="button button--secondary" onClick={() => void signOut(false)}>
          Sign out
        </button>
      </div>
    </header>
  );
}
