/**
 * The service, for programs that run it in-process: the app's local workspace, the CLI's tests,
 * every client test (over real HTTP on a free port).
 *
 *   const service = await startService({ dataDir: 'memory://', port: 0 });
 *   const { adminKey } = await seedDemo(service.db);
 *   ... fetch(`${service.url}/v1/organizations/demo/configurations`, { headers: { authorization: `Bearer ${adminKey}` } })
 *   await service.close();
 */
export { startService, createContext, type StartServiceOptions, type RunningService } from './service';
export { openDatabase, DEFAULT_DATA_DIR } from './db/open';
export type { Database, DatabaseOptions, Queryable } from './db/database';
export {
  seedDemo,
  demoSerialNumbers,
  demoManufacturingRecords,
  DEMO_ORG_ID,
  DEMO_ADMIN_KEY_NAME,
  DEMO_FIRMWARE_VERSIONS,
  type DemoSeed,
} from './seed/demo';
export { createOrganization, getOrganization } from './store/organizations';
export { issueApiKey } from './store/api-keys';
export { upsertManufacturingRecords, type ManufacturingRecord } from './store/manufacturing';
export { importFirmwareBundle, type ImportedFirmware } from './store/firmware';
export { listReleaseKeys, releaseKeyring, trustReleaseKey } from './store/release-keys';
export { loadDefaultReleaseKey, trustDefaultReleaseKey } from './store/default-release-key';
export { loadServiceSecrets } from './store/secrets';
export { demoConfigurationDevices } from './seed/demo-configurations';
export { ROLE_MATRIX, isAllowed, type OperationId } from '../domain/role-matrix';
export { CONFIG_FILE_MEDIA_TYPE } from './routes/configuration-files';
export { issueKey, createOrganizationWithKey } from './provision';
