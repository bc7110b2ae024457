import { useState, type FormEvent } from 'react';
import { CheckboxField, TextField } from '../components/fields';
import { Callout } from '../components/misc';
import { useSession } from '../stores/session';

/** What is wrong with the sign-in form, field by field, before anything is sent. */
export function signInProblems(form: { serviceUrl: string; orgId: string; apiKey: string }): Partial<Record<'serviceUrl' | 'orgId' | 'apiKey', string>> {
  const problems: Partial<Record<'serviceUrl' | 'orgId' | 'apiKey', string>> = {};
  const url = form.serviceUrl.trim();
  if (url === '') problems.serviceUrl = 'Enter the address of the service, e.g. https://dcms.example.com.';
  else {
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') problems.serviceUrl = 'The address must start with https:// (or http:// for a service on this network).';
    } catch {
      problems.serviceUrl = 'This is not a web address: write it as https://host[:port].';
    }
  }
  if (form.orgId.trim() === '') problems.orgId = 'Enter the organization id your administrator gave you.';
  if (form.apiKey.trim() === '') problems.apiKey = 'Paste the API key of your organization.';
  return problems;
}

export function SignInScreen() {
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
  const problems = signInProblems({ serviceUrl, orgId, apiKey });
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
        <h1>Provisioner</h1>
        <p className="muted">Configure and provision SRCP, WESP, EPC and NSCP safety devices.</p>
      </div>
      <div className="signin__panels">
        <form className="panel signin__form" onSubmit={submit} noValidate aria-labelledby="signin-title">
          <h2 id="signin-title">Sign in to an organization</h2>
          <TextField
            label="Service URL"
            name="serviceUrl"
            type="url"
            value={serviceUrl}
            onChange={setServiceUrl}
            placeholder="https://dcms.example.com"
            error={shown.serviceUrl}
            autoComplete="url"
          />
          <TextField label="Organization" name="orgId" value={orgId} onChange={setOrgId} error={shown.orgId} autoComplete="organization" />
          <TextField
            label="API key"
            name="apiKey"
            type="password"
            value={apiKey}
            onChange={setApiKey}
            error={shown.apiKey}
            hint="Checked with the service before you continue. It stays on this computer, encrypted."
            autoComplete="off"
          />
          <CheckboxField label="Remember the key on this computer" checked={remember} onChange={setRemember} />
          {error ? <Callout tone="bad" title="Sign-in failed">{error}</Callout> : null}
          <div className="form-actions">
            <button type="submit" className="button button--primary" aria-disabled={busy}>
              {busy ? 'Checking key…' : 'Sign in'}
            </button>
          </div>
        </form>
        <section className="panel signin__local" aria-labelledby="local-title">
          <h2 id="local-title">Local workspace</h2>
          <p>
            Work without a cloud account: Provisioner runs the service on this computer with a demo organization, its devices and
            firmware. Good for training, demos and trying devices out on the workbench.
          </p>
          <button type="button" className="button button--secondary" aria-disabled={busy} onClick={() => !busy && void useLocalWorkspace()}>
            Use the local workspace
          </button>
        </section>
      </div>
    </main>
  );
}
