import { SYNC_ID_HEADER } from '../../domain/config-file-download';
import { encodeConfigFile, type ConfigFileSigner } from '../../domain/files';
import { organizationSigningKeySchema, signingKeySchema } from '../../domain/records';
import type { ServiceContext } from '../context';
import { planStillHolds, prepareFilePlan, type FilePlan } from '../configurations/file-plan';
import { blankFileSettings, settingsHashOf, type FileSettings } from '../configurations/model';
import { organizationSigner, organizationSigningKey, signerOfStoredKey } from '../configurations/organization-keys';
import type { Queryable } from '../db/database';
import { conflict, notFound, ServiceError } from '../http/errors';
import { fileResult, orgOperation, publicOperation, type AnyOperationSpec } from '../http/operation';
import { orgParams, serialParams } from '../http/schemas';
import { violationsToEntries } from '../http/validation';
import { nextConfigFileSequence } from '../store/config-sequences';
import { deviceNotFound, registeredDevice } from './registered-device';
import { fileIssue } from '../store/file-issues';
import { getOrganization } from '../store/organizations';
import { syncIdFor, type IssuedSettings } from '../store/sync-ids';

export const CONFIG_FILE_MEDIA_TYPE = 'application/cbor';

/**
 * A file as each download makes it: the syncId of its content (the same for the same content), a
 * new sequence (a device refuses anything older than what it applied) and the organization's
 * signature.
 */
async function signedFile(db: Queryable, svc: ServiceContext, orgId: string, settings: FileSettings, hash: string) {
  const syncId = await syncIdFor(db, {
    serialNumber: settings.serialNumber,
    orgId,
    settingsHash: hash,
    configurationId: settings.configurationId,
    settings: issuedSettingsOf(svc, settings),
  });
  const sequence = await nextConfigFileSequence(db);
  const signer = await organizationSigner(db, svc.secrets, orgId);
  return fileOf(settings, { syncId, orgId, sequence, signer });
}

/** The settings kept with a syncId: the Wifi password only as its keyed hash. */
function issuedSettingsOf(svc: ServiceContext, settings: FileSettings): IssuedSettings {
  const password = settings.device['wifiPassword'];
  if (typeof password !== 'string') return settings;
  return {
    ...settings,
    device: { ...settings.device, wifiPassword: `hmac-sha256:${svc.secrets.contentHash(password)}` },
  };
}

function fileOf(
  settings: FileSettings,
  issued: { syncId: string; orgId: string; sequence: number; signer: ConfigFileSigner },
) {
  const { syncId, orgId, sequence, signer } = issued;
  const body = encodeConfigFile({ ...settings, syncId, orgId, sequence, issuedAt: new Date().toISOString() }, signer);
  return fileResult({
    body,
    mediaType: CONFIG_FILE_MEDIA_TYPE,
    fileName: `${settings.serialNumber}${settings.blank ? '-blank' : ''}.cbor`,
    headers: { [SYNC_ID_HEADER]: syncId },
  });
}

/**
 * A device's file: its content from the plan kept in the read cache when that plan is still the
 * one the database calls for (configuration-files plan, server/configurations/file-plan.ts), else
 * prepared in this transaction; then the syncId, a new sequence and the signature. On the common
 * path that is one statement in the transaction.
 */
async function downloadFile(db: Queryable, ctx: ServiceContext, orgId: string, serialNumber: string) {
  const reads = ctx.reads;
  // First in the transaction: a plan prepared here reads a snapshot taken after the cache's token,
  // so the cache keeps it only if nothing it was read from changed since (server/cache/read-cache.ts).
  let plan: FilePlan = reads
    ? await reads.through(`file-plan/${orgId}/${serialNumber}`, () =>
        prepareFilePlan(db, ctx, orgId, serialNumber, reads),
      )
    : await prepareFilePlan(db, ctx, orgId, serialNumber);
  const issue = await fileIssue(db, orgId, serialNumber);
  // Prepared again from this transaction alone: nothing kept is trusted twice.
  if (!planStillHolds(plan, issue)) plan = await prepareFilePlan(db, ctx, orgId, serialNumber);
  if (!issue || plan.kind === 'unregistered') throw deviceNotFound(serialNumber);
  if (plan.kind === 'unconfigured') {
    throw conflict(
      'DEVICE_NOT_IN_CONFIGURATION',
      `Device ${serialNumber} is in no configuration: add it to one before downloading its file.`,
      'serialNumber',
    );
  }
  if (plan.kind === 'incomplete') {
    throw new ServiceError(409, [
      {
        code: 'CONFIGURATION_INCOMPLETE',
        message: `Configuration "${plan.configurationName}" is not complete, so no file can be made yet: fix the errors listed with it (the configuration's status shows them too).`,
      },
      ...violationsToEntries(plan.violations),
    ]);
  }
  // The syncId issued for the stored hash is this content's only when the plan has that hash.
  const syncId =
    issue.syncId !== null && issue.currentSettingsHash === plan.hash
      ? issue.syncId
      : await syncIdFor(db, {
          serialNumber,
          orgId,
          settingsHash: plan.hash,
          configurationId: plan.configurationId,
          settings: issuedSettingsOf(ctx, plan.settings),
        });
  const signer = issue.key
    ? signerOfStoredKey(ctx.secrets, orgId, issue.key)
    : await organizationSigner(db, ctx.secrets, orgId);
  return fileOf(plan.settings, { syncId, orgId, sequence: issue.sequence, signer });
}

const FILE_HEADERS = { [SYNC_ID_HEADER]: 'the syncId in the file (uuid); confirm-apply-configuration names it' };

export const configurationFileOperations: AnyOperationSpec[] = [
  orgOperation({
    id: 'devices.configurationFile',
    method: 'GET',
    path: '/organizations/:orgId/devices/:serialNumber/configuration-file',
    tag: 'Configuration files',
    summary:
      "The device's signed configuration file (CBOR). 409 with the reasons while the device is in no configuration or its configuration is incomplete.",
    description:
      'The syncId stays the same while the content of the file stays the same and changes whenever it changes; the sequence in the file is new at every download. ' +
      "The file is signed with the organization's key, whose certificate it carries; verify that with the service's root key, GET /v1/config-file-signing-key.",
    params: serialParams,
    // Issuing a syncId for new content is a write.
    mutates: true,
    response: {
      kind: 'file',
      mediaType: CONFIG_FILE_MEDIA_TYPE,
      description: 'The configuration file.',
      headers: FILE_HEADERS,
    },
    handler: async ({ db, ctx, caller, params }) => downloadFile(db, ctx, caller.orgId, params.serialNumber),
  }),
  orgOperation({
    id: 'devices.blankConfigurationFile',
    method: 'GET',
    path: '/organizations/:orgId/devices/:serialNumber/configuration-file/blank',
    tag: 'Configuration files',
    summary: 'A signed blank configuration file for the device: applying it resets the device to no configuration.',
    params: serialParams,
    mutates: true,
    response: {
      kind: 'file',
      mediaType: CONFIG_FILE_MEDIA_TYPE,
      description: 'The blank configuration file.',
      headers: FILE_HEADERS,
    },
    handler: async ({ db, ctx, caller, params }) => {
      const device = await registeredDevice(db, caller.orgId, params.serialNumber);
      const settings = blankFileSettings(device.serialNumber, device.deviceType);
      return signedFile(db, ctx, caller.orgId, settings, settingsHashOf(ctx, settings));
    },
  }),
  publicOperation({
    id: 'public.signingKey',
    method: 'GET',
    path: '/config-file-signing-key',
    tag: 'Configuration files',
    summary:
      "The service's root key (no key needed): devices are made trusting it; it certifies each organization's configuration-file signing key.",
    description:
      'It signs no configuration file itself. A file carries the certificate of the organization key that signed it; this key checks that certificate.',
    mutates: false,
    response: { kind: 'json', data: signingKeySchema, description: 'The ES256 (ECDSA P-256) public key, SPKI PEM.' },
    handler: async ({ ctx }) => ctx.secrets.signingKey,
  }),
  publicOperation({
    id: 'public.organizationSigningKey',
    method: 'GET',
    path: '/organizations/:orgId/config-file-signing-key',
    tag: 'Configuration files',
    summary:
      "The key that signs the organization's configuration files, with the root key's certificate for it (no key needed: public keys).",
    description:
      "Made with the organization's first file, or by this call. Unknown organization: 404 ORGANIZATION_NOT_FOUND.",
    params: orgParams,
    // The key is made on first use.
    mutates: true,
    response: {
      kind: 'json',
      data: organizationSigningKeySchema,
      description: "The organization's ES256 public key and its certificate.",
    },
    handler: async ({ db, ctx, params }) => {
      if (!(await getOrganization(db, params.orgId)))
        throw notFound('ORGANIZATION_NOT_FOUND', `There is no organization ${params.orgId}.`, 'orgId');
      const key = await organizationSigningKey(db, ctx.secrets, params.orgId);
      return {
        orgId: key.orgId,
        keyId: key.keyId,
        algorithm: 'ES256' as const,
        publicKeyPem: key.publicKeyPem,
        certificate: Buffer.from(key.certificate).toString('base64'),
        rootKeyId: key.rootKeyId,
      };
    },
  }),
];
