import { versionSchema } from '../../domain/records';
import { orgParams } from '../http/schemas';
import { orgOperation, publicOperation, type AnyOperationSpec } from '../http/operation';

export const API_VERSION = 'v1';

export const versionOperations: AnyOperationSpec[] = [
  publicOperation({
    id: 'public.version',
    method: 'GET',
    path: '/version',
    tag: 'Version',
    summary: 'The current version of the API (no key needed: load balancers probe it).',
    mutates: false,
    response: { kind: 'json', data: versionSchema, description: 'The API and service versions.' },
    handler: async ({ ctx }) => ({ apiVersion: API_VERSION, serviceVersion: ctx.version }),
  }),
  orgOperation({
    id: 'version.organization',
    method: 'GET',
    path: '/organizations/:orgId/version',
    tag: 'Version',
    summary: 'The current version of the API, for a key of the organization.',
    params: orgParams,
    mutates: false,
    response: { kind: 'json', data: versionSchema, description: 'The API and service versions.' },
    handler: async ({ ctx }) => ({ apiVersion: API_VERSION, serviceVersion: ctx.version }),
  }),
];
