import type { ServiceClient } from '../../cloud';
import { CoreError } from '../../../contract/errors';
import type { Capability } from '../../../contract/index';
import type { LedgerChannel, LedgerVerifyProgress, LedgerVerifyView } from '../../../contract/ledger';
import { checkLedgerEntries } from '../../../domain/ledger-entry-check';
import { SigningKeyStore } from '../../engine/jobs/signing-key-store';
import {
  refreshWorkstationKeys,
  sendLedger,
  verifyLedgers,
  WorkstationKeyCache,
  type KeyListSource,
  type Ledger,
  type LedgerVerification,
} from '../../engine/ledger';
import { provisioningPaths } from '../../engine/paths';
import { LOCAL_WORKSPACE_SERVICE } from '../local-workspace';
import type { HandlerGroup } from './types';

/** The account whose organization's chain the ledger is sent to and checked against. */
export interface LedgerServiceAccount {
  client: ServiceClient;
  /** As the ledger files it: the local workspace's own name for the local workspace. */
  serviceUrl: string;
  orgId: string;
  /** Who is signed in (the API key's name): the actor of a key rotation's entry, when the host knows it. */
  actor?: string;
}

export interface LedgerHandlerDeps {
  ledger: () => Ledger;
  workstation: () => Promise<string>;
  /** Where the per-account files are: the organization's root key and its list of enrolled keys, kept. */
  dataDir: string;
  /**
   * The account, for what a capability allows: the app asks its session (which refuses a role
   * without it), the command line settles its one account.
   */
  account: (capability?: Capability) => Promise<LedgerServiceAccount>;
  /**
   * Whose kept list of enrolled keys a check that asks no service reads: the host's saved login
   * (the command line), the session's account (the app); undefined when there is none.
   */
  keptKeysFor: () => Promise<{ serviceUrl: string; orgId: string } | undefined>;
  /** How far a check is (the `ledger.verifyProgress` event). */
  onProgress: (progress: LedgerVerifyProgress) => void;
}

/** Whether every check that ran holds. */
export function verificationHolds(result: LedgerVerification): boolean {
  if (!result.local.ok) return false;
  if (!result.service) return true;
  if ('error' in result.service) return false;
  return result.service.chain.ok && result.service.mismatch === undefined;
}

/** The local workspace has no workstation keys: enrolment and revocation are a service's. */
function refuseLocalWorkspace(account: LedgerServiceAccount, what: string): void {
  if (account.serviceUrl === LOCAL_WORKSPACE_SERVICE)
    throw new CoreError('VALIDATION', `Sign in to a service first: the local workspace ${what}.`);
}

/**
 * The organization's enrolled keys: fresh from the service (then kept) when one is asked, else the
 * list kept for the address, checked against the organization's root key kept for it.
 */
function keyListSource(
  dataDir: string,
  address: { serviceUrl: string; orgId: string } | undefined,
  account: LedgerServiceAccount | undefined,
): KeyListSource {
  if (!address) return {};
  const dir = provisioningPaths(dataDir).account(address.serviceUrl, address.orgId).keys;
  const rootKeys = new SigningKeyStore({ dir });
  const cache = new WorkstationKeyCache({ dir });
  const { orgId } = address;
  const kept = async () => {
    const root = await rootKeys.stored();
    return root ? cache.read({ rootKeyPem: root.publicKeyPem, orgId }) : undefined;
  };
  if (!account) return { kept };
  return {
    kept,
    fetch: async () => {
      const root = (await rootKeys.get(account.client)).key;
      if (!root) throw new Error("the service's root key is not known, so its list of keys cannot be checked");
      return refreshWorkstationKeys(account.client, cache, { rootKeyPem: root.publicKeyPem, orgId });
    },
  };
}

/** This workstation's ledger checked, sent and its key enrolled (docs/ledger.md): `ledger verify|enrol|revoke`. */
export function ledgerHandlers(deps: LedgerHandlerDeps): HandlerGroup<LedgerChannel> {
  return {
    'ledger.verify': async (input): Promise<LedgerVerifyView> => {
      const ledger = deps.ledger();
      const workstation = await deps.workstation();
      // Checking sends the entries the service lacks: a role that confirms actions.
      const account = input.local ? undefined : await deps.account('confirmations.send');
      const address = account ?? (await deps.keptKeysFor());
      const result = await verifyLedgers(ledger, {
        workstation,
        keyList: keyListSource(deps.dataDir, address, account),
        ...(account ? { account } : {}),
        onProgress: deps.onProgress,
      });
      const entries =
        input.entries.length > 0 ? checkLedgerEntries(await ledger.readAll(), result.local, input.entries) : undefined;
      const ok = verificationHolds(result) && (entries ?? []).every((entry) => entry.holds);
      return { ok, workstation, ...result, ...(entries ? { entries } : {}) };
    },
    'ledger.enrol': async (input) => {
      const account = await deps.account('confirmations.send');
      refuseLocalWorkspace(account, 'enrols nothing');
      const ledger = deps.ledger();
      const workstation = await deps.workstation();
      const enrolment = await account.client.workstations.enrol(
        await ledger.enrolment(account.orgId, workstation, { rotate: input.rotate }),
      );
      if (input.rotate && enrolment.enrolled) {
        // The rotation in the chain: the new key's first entry says which key it replaced and who rotated it, and goes to the organization's chain now.
        const previous = (await ledger.entries()).findLast(
          (entry) => entry.workstation === workstation && entry.signerKey !== enrolment.key.publicKey,
        )?.signerKey;
        await ledger.append({
          at: new Date().toISOString(),
          action: 'key-rotation',
          outcome: 'success',
          serialNumber: `workstation:${workstation}`,
          workstation,
          ...(account.actor ? { actor: account.actor } : {}),
          serviceUrl: account.serviceUrl,
          orgId: account.orgId,
          facts: {
            publicKey: enrolment.key.publicKey,
            previousKey: previous ?? null,
            enrolledBy: enrolment.key.enrolledBy,
            enrolledAt: enrolment.key.enrolledAt,
          },
        });
        await sendLedger(ledger, account);
      }
      return { workstation, enrolment };
    },
    'ledger.revoke': async (input) => {
      const account = await deps.account('keys.manage');
      refuseLocalWorkspace(account, 'has no enrolled keys');
      return account.client.workstations.revoke(input.workstation, input.reason);
    },
    'ledger.send': async () => sendLedger(deps.ledger(), await deps.account('confirmations.send')),
  };
}
