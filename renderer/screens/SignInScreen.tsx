import { useState, type FormEvent } from 'react';
import type { Translator } from '../../domain/i18n/index.js';
import { useTranslator } from '../i18n/I18nProvider';
import { CheckboxField, TextField } from '../components/fields';
import { Callout } from '../components/misc';
import { useSession } from '../stores/session';

/** What is wrong with the sign-in form, field by field, before anything is sent, in the reader's language. */
export function signInProblems(
  form: { serviceUrl: string; orgId: string; apiKey: string },
  t: Translator['t'],
): Partial<Record<'serviceUrl' | 'orgId' | 'apiKey', string>> {
  const problems: Partial<Record<'serviceUrl' | 'orgId' | 'apiKey', string>> = {};
  const url = form.serviceUrl.trim();
  if (url === '') problems.serviceUrl = t('screens:signIn.problem.serviceUrlEmpty');
  else {
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
        problems.serviceUrl = t('screens:signIn.problem.serviceUrlProtocol');
    } catch {
      problems.serviceUrl = t('screens:signIn.problem.serviceUrlInvalid');
    }
  }
  if (form.orgId.trim() === '') problems.orgId = t('screens:signIn.problem.orgIdEmpty');
  if (form.apiKey.trim() === '') problems.apiKey = t('screens:signIn.problem.apiKeyEmpty');
  return problems;
}

export function SignInScreen() {
  const { t } = useTranslator();
  const session = useSession((s) => s.session);
  const busy = useSession((s) => s.busy);
  const error = useSession((s) => s.error);
  const signIn = useSession((s) => s.signIn);
  const useLocalWorkspace = useSession((s) => s.useLocalWorkspace);
  const last = session?.status === 'signedOut' ? session : null;
  const [serviceUrl, setServiceUrl] = useState(last?.lastServiceUrl ?? '');
  const [orgId, setOrgId] = useState(last?.lastOrgId ?? '');
  const [apiKey, setApiKey] = useState('');
  const [remember, setRemember] = useState(true);
  const [tried, setTried] = useState(false);
  const problems = signInProblems({ serviceUrl, orgId, apiKey }, t);
  const shown = tried ? problems : {};

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (Object.keys(problems).length > 0 || busy) return;
    void signIn({ serviceUrl: serviceUrl.trim(), orgId: orgId.trim(), apiKey: apiKey.trim(), remember }).then((ok) => {
      if (ok) setApiKey('');
    });
  };

  return (
    <main className="signin" id="main">
      <div className="signin__brand">
        <h1 translate="no">Provisioner</h1>
        <p className="muted">{t('screens:signIn.tagline')}</p>
      </div>
      <div className="signin__panels">
        <form className="panel signin__form" onSubmit={submit} noValidate aria-labelledby="signin-title">
          <h2 id="signin-title">{t('screens:signIn.title')}</h2>
          <TextField
            label={t('screens:signIn.serviceUrl')}
            name="serviceUrl"
            type="url"
            value={serviceUrl}
            onChange={setServiceUrl}
            placeholder="https://dcms.example.com"
            placeholderIsData
            error={shown.serviceUrl}
            autoComplete="url"
          />
          <TextField
            label={t('screens:signIn.organization')}
            name="orgId"
            value={orgId}
            onChange={setOrgId}
            error={shown.orgId}
            autoComplete="organization"
          />
          <TextField
            label={t('screens:signIn.apiKey')}
            name="apiKey"
            type="password"
            value={apiKey}
            onChange={setApiKey}
            error={shown.apiKey}
            hint={t('screens:signIn.apiKeyHint')}
            autoComplete="off"
          />
          <CheckboxField label={t('screens:signIn.remember')} checked={remember} onChange={setRemember} />
          {error ? (
            <Callout tone="bad" title={t('screens:signIn.failed')}>
              {error}
            </Callout>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="button button--primary" aria-disabled={busy}>
              {busy ? t('screens:signIn.checking') : t('screens:signIn.submit')}
            </button>
          </div>
        </form>
        <section className="panel signin__local" aria-labelledby="local-title">
          <h2 id="local-title">{t('screens:signIn.local.title')}</h2>
          <p>{t('screens:signIn.local.text')}</p>
          <button
            type="button"
            className="button button--secondary"
            aria-disabled={busy}
            onClick={() => !busy && void useLocalWorkspace()}
          >
            {t('screens:signIn.local.use')}
          </button>
        </section>
      </div>
    </main>
  );
}
