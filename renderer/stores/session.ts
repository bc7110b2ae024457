import { create } from 'zustand';
import type { AppInfo, Capability, CapabilityState, ChannelInput, SessionView } from '../../contract/index';
import { client, errorText } from '../api/client';

type SignedIn = Extract<SessionView, { status: 'signedIn' }>;

interface SessionState {
  session: SessionView | null;
  appInfo: AppInfo | null;
  busy: boolean;
  error: string | null;
  load(): Promise<void>;
  signIn(input: ChannelInput<'session.signIn'>): Promise<boolean>;
  useLocalWorkspace(): Promise<boolean>;
  signOut(forget: boolean): Promise<void>;
  /** Applied from the `session.changed` stream. */
  apply(session: SessionView): void;
}

export const useSession = create<SessionState>((set) => {
  const run = async (work: () => Promise<SessionView>): Promise<boolean> => {
    set({ busy: true, error: null });
    try {
      const session = await work();
      set({ session, busy: false });
      return session.status === 'signedIn';
    } catch (err) {
      set({ busy: false, error: errorText(err) });
      return false;
    }
  };
  return {
    session: null,
    appInfo: null,
    busy: false,
    error: null,
    async load() {
      const [session, appInfo] = await Promise.all([client().call('session.get', {}), client().call('app.info', {})]);
      set({ session, appInfo });
    },
    signIn: (input) => run(() => client().call('session.signIn', input)),
    useLocalWorkspace: () => run(() => client().call('session.useLocalWorkspace', {})),
    async signOut(forget) {
      await run(() => client().call('session.signOut', { forget }));
    },
    apply: (session) => set({ session }),
  };
});

export function signedIn(session: SessionView | null): SignedIn | null {
  return session?.status === 'signedIn' ? session : null;
}

const SIGNED_OUT: CapabilityState = { allowed: false, reason: 'Sign in first.' };

/** Whether the signed-in key may do something, with the reason when it may not. */
export function capability(session: SessionView | null, name: Capability): CapabilityState {
  const current = signedIn(session);
  return current ? current.capabilities[name] : SIGNED_OUT;
}

export function useCapability(name: Capability): CapabilityState {
  return useSession((s) => capability(s.session, name));
}
