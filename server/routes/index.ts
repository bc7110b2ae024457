import type { AnyOperationSpec } from '../http/operation';
import { apiKeyOperations } from './api-keys';
import { configurationFileOperations } from './configuration-files';
import { configurationOperations } from './configurations';
import { confirmationOperations } from './confirmations';
import { deviceOperations } from './devices';
import { firmwareOperations } from './firmware';
import { ledgerOperations } from './ledger';
import { syncIdOperations } from './sync-ids';
import { templateOperations } from './templates';
import { userOperations } from './users';
import { openApiOperation } from './openapi';
import { versionOperations } from './version';
import { workstationOperations } from './workstations';
import { workPackageOperations } from './work-packages';

/** Every operation the service answers, in the order the interface lists them. */
export const ALL_OPERATIONS: readonly AnyOperationSpec[] = [
  ...configurationOperations,
  ...deviceOperations,
  ...firmwareOperations,
  ...configurationFileOperations,
  ...syncIdOperations,
  ...confirmationOperations,
  ...ledgerOperations,
  ...workstationOperations,
  ...workPackageOperations,
  ...templateOperations,
  ...userOperations,
  ...apiKeyOperations,
  ...versionOperations,
  openApiOperation(() => ALL_OPERATIONS),
];
