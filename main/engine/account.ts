import type { ApiKeyRole, Region } from '../../domain/enums';
import type { ServiceClient } from '../cloud';

/**
 * The signed-in account as main holds it (the account session in main/core keeps it; the engine and
 * the features read it). The key never leaves this object except to the client. */
export interface Account {
  kind: 'local' | 'service';
  serviceUrl: string;
  orgId: string;
  keyName: string | null;
  role: ApiKeyRole;
  organizationName: string | null;
  region: Region | null;
  remembered: boolean;
  /** The service root key's fingerprint, asked once at sign-in; null when it could not be. */
  rootFingerprint?: string | null;
  client: ServiceClient;
}
