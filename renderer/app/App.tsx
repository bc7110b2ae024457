import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/client';
import { Notices } from './Notices';
import { Shell } from './Shell';
import { SignInScreen } from '../screens/SignInScreen';
import { useSession } from '../stores/session';
import { wireEvents } from '../stores/wire-events';

export function App() {
  const { t } = useTranslation();
  const session = useSession((s) => s.session);
  const [startError, setStartError] = useState<string | null>(null);

  useEffect(() => {
    const off = wireEvents();
    useSession
      .getState()
      .load()
      .catch((err: unknown) => setStartError(errorText(err)));
    return off;
  }, []);

  if (startError) {
    return (
      <main className="fatal">
        <h1>{t('app:start.failed')}</h1>
        <p>{startError}</p>
      </main>
    );
  }
  return (
    <>
      {session === null ? (
        <main className="fatal" aria-busy="true">
          <p className="muted">{t('app:start.starting')}</p>
        </main>
      ) : session.status === 'signedOut' ? (
        <SignInScreen />
      ) : (
        <Shell />
      )}
      <Notices />
    </>
  );
}
