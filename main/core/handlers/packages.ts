import type { PackageChannel, PackageFileChannel, WorkPackageFileView } from '../../../contract/index';
import { CoreError } from '../../../contract/errors';
import { rootKeyFingerprint } from '../../../domain/files/config-file-signature';
import { FileFormatError } from '../../../domain/files/file-error';
import { readWorkPackage } from '../../../domain/files/work-package';
import type { ServiceClient } from '../../cloud';
import { FirmwareCache } from '../../engine/cache/firmware-cache';
import { ConfigFileStore, provisioningPaths, SigningKeyStore } from '../../engine/jobs';
import type { Ledger } from '../../engine/ledger';
import { Outbox } from '../../engine/outbox/outbox';
import { toCoreError } from '../errors';
import {
  deliverConfirmations,
  exportConfirmations,
  exportWorkPackage,
  importWorkPackage,
  type ExportedPackage,
  packagePaths,
  WorkPackageError,
} from '../../features/packages';
import { carriedEnrolments } from '../../features/packages/enrolment-grants';
import { LOCAL_WORKSPACE_SERVICE } from '../local-workspace';
import { importedPackageAccount } from '../offline-package-account';
import type { QuarantinedFile } from '../../../platform/quarantine';
import type { AccountSession } from '../account-session';
import type { HandlerGroup } from './types';

export interface PackageHandlerDeps {
  session: AccountSession;
  cache: FirmwareCache;
  workstation: () => Promise<string>;
  now?: () => Date;
}

/** A file name people recognise: the configuration's name and the day, nothing a file system refuses. */
function fileNameFor(configurationName: string, createdAt: string): string {
  const name = configurationName.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'configuration';
  return `${name}-${createdAt.slice(0, 10)}.provisioner-package`;
}

/**
 * A package exported for the session's account, refused for the local workspace; why it cannot be
 * made (incomplete configuration, a file the devices would refuse) is for the technician, as it is.
 */
async function exportForSession(
  deps: PackageHandlerDeps,
  configuration: { id: string } | { name: string },
  expiresInDays: number | undefined,
): Promise<ExportedPackage> {
  const account = deps.session.require('files.download');
  if (account.kind === 'local') throw new CoreError('INVALID_INPUT', LOCAL_WORKSPACE_REFUSAL);
  try {
    return await exportWorkPackage({
      client: account.client,
      origin: { serviceUrl: account.serviceUrl, orgId: account.orgId },
      cache: deps.cache,
      configuration,
      workstation: await deps.workstation(),
      ...(expiresInDays !== undefined ? { expiresInDays } : {}),
      ...(deps.now ? { now: deps.now } : {}),
    });
  } catch (error) {
    if (error instanceof WorkPackageError) throw new CoreError('VALIDATION', error.message, [], null, error.reason);
    if (error instanceof FileFormatError) throw new CoreError('VALIDATION', error.message);
    throw toCoreError(error);
  }
}

/** Served to the command line only: said, rather than a channel without a handler. */
const commandLineOnly = (channel: string, command: string) => async (): Promise<never> => {
  throw new CoreError(
    'UNKNOWN_CHANNEL',
    `${channel} is served to the command line (${command}): the app keeps no account of a work package imported while not signed in.`,
  );
};

/**
 * The UI's side of docs/work-packages.md: the same export as `provisioner package export`, and the
 * delivery of a confirmations file for the signed-in service. A package's import and the export of
 * the confirmations are the command line's (packageFileHandlers).
 */
export function packageHandlers(deps: PackageHandlerDeps): HandlerGroup<PackageChannel | PackageFileChannel> {
  return {
    'packages.export': async (input): Promise<WorkPackageFileView> => {
      const exported = await exportForSession(deps, { id: input.configurationId }, input.expiresInDays);
      const { body } = exported;
      return {
        fileName: fileNameFor(body.configuration.name, body.createdAt),
        contentBase64: Buffer.from(exported.bytes).toString('base64'),
        sizeBytes: exported.bytes.length,
        packageId: body.packageId,
        configurationName: body.configuration.name,
        deviceCount: body.devices.length,
        firmwareCount: body.firmware.length,
        expiresAt: body.expiresAt,
        signerKeyId: exported.signerKeyId,
        rootFingerprint: rootKeyFingerprint(body.keys.configFileRootKey.publicKeyPem),
      };
    },
    'packages.exportByName': async (input) => {
      const exported = await exportForSession(deps, { name: input.configurationName }, input.expiresInDays);
      return {
        contentBase64: Buffer.from(exported.bytes).toString('base64'),
        body: exported.body,
        signerKeyId: exported.signerKeyId,
      };
    },
    'packages.importConfirmations': async (input) => {
      const account = deps.session.require('confirmations.send');
      if (account.kind === 'local') throw new CoreError('INVALID_INPUT', LOCAL_WORKSPACE_REFUSAL);
      return refusing(() =>
        deliverConfirmations({
          bytes: new Uint8Array(Buffer.from(input.contentBase64, 'base64')),
          account,
          ...(input.signer !== undefined ? { requiredSigner: input.signer } : {}),
        }),
      );
    },
    'packages.import': commandLineOnly('packages.import', 'provisioner package import'),
    'packages.exportConfirmations': commandLineOnly(
      'packages.exportConfirmations',
      'provisioner package export-confirmations',
    ),
    'packages.rootFingerprint': commandLineOnly('packages.rootFingerprint', 'provisioner status'),
  };
}

/** An account as the package files need it: where its caches are kept, and its client. */
interface PackageAccount {
  serviceUrl: string;
  orgId: string;
  client: ServiceClient;
}

export interface PackageFileHandlerDeps {
  /** Root of the provisioning data: the firmware cache, the outbox, the per-account stores, the imported packages' records. */
  dataDir: string;
  /** The account the host works for, settled: a login, a work package's (offline), or the local workspace. */
  account: () => Promise<PackageAccount>;
  /** The service login kept here, when there is one: a package is kept for its account. */
  login: () => Promise<PackageAccount | undefined>;
  /** This workstation's ledger: its key signs the confirmations file, its entries travel in it. */
  ledger: () => Ledger;
  workstation: () => Promise<string>;
  /** Where a damaged kept key is said to have been set aside. */
  onQuarantine?: (file: QuarantinedFile) => void;
}

/** A refusal of a package or a confirmations file, as the contract carries one: the English and the reason as codes. */
async function refusing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof WorkPackageError) throw new CoreError('VALIDATION', error.message, [], null, error.reason);
    throw error;
  }
}

const LOCAL_WORKSPACE_REFUSAL =
  'The local workspace is on this computer only, and a work package carries the files of a service to a workstation that cannot reach it. Sign in to the service first.';

/**
 * The command line's side of docs/work-packages.md: a package by configuration name, the import of
 * one (checked before anything is kept), and the confirmations carried back by hand. The stores
 * are opened per call, as one command uses them; errors other than a refusal go out as they are.
 */
export function packageFileHandlers(deps: PackageFileHandlerDeps): HandlerGroup<PackageFileChannel> {
  const paths = provisioningPaths(deps.dataDir);
  const firmwareCache = () => new FirmwareCache({ dir: paths.firmwareCache });
  const importedRecords = packagePaths(deps.dataDir).imported;
  return {
    'packages.exportByName': async (input) => {
      const account = await deps.account();
      if (account.serviceUrl === LOCAL_WORKSPACE_SERVICE) throw new CoreError('INVALID_INPUT', LOCAL_WORKSPACE_REFUSAL);
      const exported = await refusing(async () =>
        exportWorkPackage({
          client: account.client,
          origin: { serviceUrl: account.serviceUrl, orgId: account.orgId },
          cache: firmwareCache(),
          configuration: { name: input.configurationName },
          workstation: await deps.workstation(),
          ...(input.expiresInDays !== undefined ? { expiresInDays: input.expiresInDays } : {}),
        }),
      );
      return {
        contentBase64: Buffer.from(exported.bytes).toString('base64'),
        body: exported.body,
        signerKeyId: exported.signerKeyId,
      };
    },
    'packages.import': async (input) => {
      const bytes = new Uint8Array(Buffer.from(input.contentBase64, 'base64'));
      const login = await deps.login();
      const origin = readWorkPackage(bytes).body.origin;
      // Not signed in: the package names which account's caches it fills; only its signature, checked on import, makes it count.
      const account = login ? { serviceUrl: login.serviceUrl, orgId: login.orgId } : origin;
      const accountDirs = paths.account(account.serviceUrl, account.orgId);
      if (login && origin.serviceUrl === login.serviceUrl && origin.orgId === login.orgId) {
        // Signed in there: the root key comes from the service when it answers, else the one kept here.
        // One quick try: a signed-in laptop at a plant without network uses the kept key.
        await new SigningKeyStore({ dir: accountDirs.keys })
          .get(login.client, { retry: false, timeoutMs: 10_000 })
          .catch(() => undefined);
      }
      const imported = await refusing(() =>
        importWorkPackage({
          bytes,
          account,
          cache: firmwareCache(),
          configFiles: new ConfigFileStore({ dir: accountDirs.configFiles }),
          signingKeys: new SigningKeyStore({ dir: accountDirs.keys }),
          recordDir: importedRecords,
          notSignedIn: !login,
          ...(input.signer !== undefined ? { requiredSigner: input.signer } : {}),
          ...(input.rootFingerprint !== undefined ? { rootFingerprint: input.rootFingerprint } : {}),
        }),
      );
      return { ...imported, account: { serviceUrl: account.serviceUrl, orgId: account.orgId }, signedIn: !!login };
    },
    'packages.exportConfirmations': async () => {
      // Read only: what waits stays in the outbox, which still sends it if this laptop comes back online.
      const outbox = new Outbox({
        dir: paths.outbox,
        sender: { send: () => Promise.reject(new Error('not sending')) },
      });
      const ledger = deps.ledger();
      const workstation = await deps.workstation();
      const exported = await refusing(async () =>
        exportConfirmations({
          outbox,
          // Signed by this workstation's ledger key: the key the service enrols (with the grant carried) or has enrolled.
          signer: await ledger.containerSigner(),
          workstation,
          enrolments: () => carriedEnrolments({ recordDir: importedRecords, ledger, workstation }),
          // The head sealed in the secret store, not the file's last line: a ledger cut before export shows.
          ledgerHead: async () => {
            const head = await ledger.sealedHead();
            return head && !('fault' in head) ? head : undefined;
          },
          // The whole ledger: the service takes each organization's entries (and checks them) when the file is imported.
          ledgerLines: () => ledger.entries(),
        }),
      );
      return {
        contentBase64: Buffer.from(exported.bytes).toString('base64'),
        body: exported.body,
        signerKeyId: exported.signerKeyId,
      };
    },
    'packages.rootFingerprint': async () => {
      const login = await deps.login();
      const named = login ?? (await importedPackageAccount(deps.dataDir));
      if (!named) return { rootFingerprint: null };
      const store = new SigningKeyStore({
        dir: paths.account(named.serviceUrl, named.orgId).keys,
        ...(deps.onQuarantine ? { onQuarantine: deps.onQuarantine } : {}),
      });
      // One quick try: status must not hang on a service that cannot be reached; the kept key answers then.
      const key = login
        ? ((await store.get(login.client, { retry: false, timeoutMs: 5_000 }).catch(() => undefined))?.key ??
          (await store.stored()))
        : await store.stored();
      return { rootFingerprint: key ? rootKeyFingerprint(key.publicKeyPem) : null };
    },
    'packages.importConfirmations': async (input) => {
      const account = await deps.account();
      return refusing(() =>
        deliverConfirmations({
          bytes: new Uint8Array(Buffer.from(input.contentBase64, 'base64')),
          account,
          ...(input.signer !== undefined ? { requiredSigner: input.signer } : {}),
        }),
      );
    },
  };
}
