import { apiKeyRoleSchema } from '../../../domain/enums';
import type { SessionView } from '../../../contract/index';
import type { CoreLog } from '../../engine/core-log';
import { signedInView, signInWithKey, type ClientFactory } from '../key-sign-in';
import type { LoginStore, SavedLogin } from '../login-store';
import type { HandlerGroup } from './types';

/** The session channels a core without a session of its own serves: the CLI's. */
export type SavedLoginChannel = 'session.get' | 'session.signIn' | 'session.signOut';

export interface SavedLoginDeps {
  /**
   * The login store the app keeps its login in, once the host has moved a login an earlier
   * version left into it (the CLI says so in a note).
   */
  logins: () => Promise<LoginStore>;
  log: Pick<CoreLog, 'addSecret' | 'warn'>;
  createClient?: ClientFactory;
}

/**
 * The saved login as the session: a command-line run signs in only to keep the key for the runs
 * after it (by the app's own policy, key-sign-in.ts), reads the login back without asking the
 * service, and forgets it with its key. Nothing here touches a choice of the local workspace the
 * app made: with no service login saved, signing out changes nothing.
 */
export function savedLoginHandlers(deps: SavedLoginDeps): HandlerGroup<SavedLoginChannel> {
  const signedOut: SessionView = { status: 'signedOut', lastServiceUrl: null, lastOrgId: null };
  return {
    'session.signIn': async (input) => {
      const signedIn = await signInWithKey(
        {
          createClient: deps.createClient,
          // Asked only once the service took the key: a refused login moves nothing.
          logins: {
            save: async (login) => (await deps.logins()).save(login),
            saveWithoutKey: async (serviceUrl, orgId) => (await deps.logins()).saveWithoutKey(serviceUrl, orgId),
          },
          log: deps.log,
          // A login the CLI could not keep is no login: the store's error is the answer.
          whenNotKept: 'throw',
        },
        input,
      );
      return signedInView({ kind: 'service', ...signedIn });
    },
    'session.get': async () => {
      const saved = await (await deps.logins()).read();
      return saved ? (savedLoginView(saved) ?? signedOut) : signedOut;
    },
    // `forget`: the key goes too (the CLI's logout); without it only the login to resume does.
    'session.signOut': async (input) => {
      const store = await deps.logins();
      const saved = await store.read();
      if (saved) await store.forget(input.forget ? saved : undefined);
      return signedOut;
    },
  };
}

/**
 * A saved login as the session view, as kept (the service is not asked). Undefined for a login
 * whose role is none the service names: only a hand-written file holds one, and the view has no
 * way to say it; log in again.
 */
function savedLoginView(saved: SavedLogin): SessionView | undefined {
  const role = apiKeyRoleSchema.safeParse(saved.role);
  if (!role.success) return undefined;
  return signedInView({
    kind: 'service',
    serviceUrl: saved.serviceUrl,
    orgId: saved.orgId,
    keyName: saved.keyName,
    role: role.data,
    organizationName: null,
    region: null,
    remembered: true,
  });
}
