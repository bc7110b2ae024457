import { SYNC_ID_HEADER } from '../../domain/config-file-download';
import { encodeConfigFile } from '../../domain/files';
import type { ServiceContext } from '../context';
import { fileState } from '../configurations/files';
import { blankFileSettings, type FileSettings } from '../configurations/model';
import type { Queryable } from '../db/database';
import { conflict, notFound, ServiceError } from '../http/errors';
import { fileResult, orgOperation, type AnyOperationSpec } from '../http/operation';
import { serialParams } from '../http/schemas';
import { violationsToEntries } from '../http/validation';
import { getConfiguration } from '../store/configurations';
import { getRegisteredDevice } from '../store/devices';
import { canonicalJson } from '../store/json';
import { syncIdFor } from '../store/sync-ids';

export const CONFIG_FILE_MEDIA_TYPE = 'application/cbor';

async function signedFile(db: Queryable, svc: ServiceContext, orgId: string, settings: FileSettings, hash: string) {
  const syncId = await syncIdFor(db, { serialNumber: settings.serialNumber, orgId, settingsHash: hash, configurationId: settings.configurationId });
  const body = encodeConfigFile({ ...settings, syncId, issuedAt: new Date().toISOString() }, svc.secrets.signer);
  return fileResult({
    body,
    mediaType: CONFIG_FILE_MEDIA_TYPE,
    fileName: `${settings.serialNumber}${settings.blank ? '-blank' : ''}.cbor`,
    headers: { [SYNC_ID_HEADER]: syncId },
  });
}

async function registered(db: Queryable, orgId: string, serialNumber: string) {
  const device = await getRegisteredDevice(db, orgId, serialNumber);
  if (!device) throw notFound('DEVICE_NOT_FOUND', `Device ${serialNumber} is not registered in this organization.`, 'serialNumber');
  return device;
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
      'The syncId stays the same while the content of the file stays the same and changes whenever it changes. Verify the signature with GET /v1/config-file-signing-key.',
    params: serialParams,
    // Issuing a syncId for new content is a write.
    mutates: true,
    response: { kind: 'file', mediaType: CONFIG_FILE_MEDIA_TYPE, description: 'The configuration file.', headers: FILE_HEADERS },
    handler: async ({ db, ctx, caller, params }) => {
      const device = await registered(db, caller.orgId, params.serialNumber);
      const stored = device.configurationId === null ? undefined : await getConfiguration(db, caller.orgId, device.configurationId);
      if (!stored) {
        throw conflict(
          'DEVICE_NOT_IN_CONFIGURATION',
          `Device ${params.serialNumber} is in no configuration: add it to one (POST configurations/{id}/devices) before downloading its file.`,
          'serialNumber',
        );
      }
      const state = await fileState(db, ctx, stored);
      if (!state.complete) {
        throw new ServiceError(409, [
          {
            code: 'CONFIGURATION_INCOMPLETE',
            message: `Configuration "${stored.name}" is not complete, so no file can be made yet: fix the errors listed with it (also shown by GET configurations/validate/${stored.id}).`,
          },
          ...violationsToEntries(state.violations),
        ]);
      }
      const file = state.files.get(params.serialNumber);
      if (!file) throw new Error(`The file of ${params.serialNumber} is missing from its complete configuration.`);
      return signedFile(db, ctx, caller.orgId, file.settings, file.hash);
    },
  }),
  orgOperation({
    id: 'devices.blankConfigurationFile',
    method: 'GET',
    path: '/organizations/:orgId/devices/:serialNumber/configuration-file/blank',
    tag: 'Configuration files',
    summary: 'A signed blank configuration file for the device: applying it resets the device to no configuration.',
    params: serialParams,
    mutates: true,
    response: { kind: 'file', mediaType: CONFIG_FILE_MEDIA_TYPE, description: 'The blank configuration file.', headers: FILE_HEADERS },
    handler: async ({ db, ctx, caller, params }) => {
      const device = await registered(db, caller.orgId, params.serialNumber);
      const settings = blankFileSettings(device.serialNumber, device.deviceType);
      return signedFile(db, ctx, caller.orgId, settings, ctx.secrets.contentHash(canonicalJson(settings)));
    },
  }),
];
