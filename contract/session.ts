import { z } from 'zod';
import type { ApiKeyRole, Region } from '../domain/enums';
import { command, noInput, query } from './channel-spec';
import { nonEmpty } from './inputs';

/** What the signed-in key may do, decided in main from the service's role matrix. */
export const CAPABILITIES = [
  'configurations.read',
  'configurations.write',
  'devices.read',
  'devices.write',
  'files.download',
  'confirmations.send',
  'templates.read',
  'templates.write',
  'users.manage',
  'keys.manage',
] as const;
export type Capability = (typeof CAPABILITIES)[number];
export type CapabilityState = { allowed: true } | { allowed: false; reason: string };

/**
 * The session as the renderer sees it. Secrets never travel towards the renderer: the API key goes
 * in on sign-in and is kept in main; no field here could carry it.
 */
export type SessionView =
  | { status: 'signedOut'; lastServiceUrl: string | null; lastOrgId: string | null }
  | {
      status: 'signedIn';
      /** `local`: the embedded service of the local workspace; `service`: a service URL the technician entered. */
      kind: 'local' | 'service';
      serviceUrl: string;
      orgId: string;
      organizationName: string | null;
      region: Region | null;
      /** Name of the key (its service account), never its value. */
      keyName: string | null;
      role: ApiKeyRole;
      capabilities: Record<Capability, CapabilityState>;
      /** Whether the key is stored for the next start (safeStorage in Electron, a 0600 file elsewhere). */
      remembered: boolean;
      /**
       * The fingerprint of the service's root key, as `provisioner status` shows it: what a laptop
       * never signed in is given to import this service's work packages (`--root-fingerprint`).
       * Null when the service did not say (or for the local workspace).
       */
      rootFingerprint?: string | null;
    };

export const SESSION_CHANNELS = {
  'session.get': query(noInput).returns<SessionView>(),
  'session.signIn': command(
    z
      .object({
        serviceUrl: z.url({ protocol: /^https?$/ }),
        orgId: nonEmpty.max(128),
        apiKey: nonEmpty.max(512),
        remember: z.boolean().default(true),
        /**
         * Send the key over plain http:// to another computer anyway (a test bench without TLS):
         * the CLI's `--insecure`. The app refuses it (INVALID_INPUT).
         */
        allowPlainHttp: z.boolean().optional(),
      })
      .strict(),
  ).returns<SessionView>(),
  'session.useLocalWorkspace': command(noInput).returns<SessionView>(),
  'session.signOut': command(z.object({ forget: z.boolean().default(false) }).strict()).returns<SessionView>(),
} as const;
export type SessionChannel = keyof typeof SESSION_CHANNELS;
