import type { AnyOperationSpec } from '../http/operation';
import { apiKeyOperations } from './api-keys';
import { versionOperations } from './version';

/** Every operation the service answers, in the order the interface lists them. */
export const ALL_OPERATIONS: readonly AnyOperationSpec[] = [...apiKeyOperations, ...versionOperations];
