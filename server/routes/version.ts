import { signingKeySchema, versionSchema } from '../../domain/records';
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
  publicOperation({
    id: 'public.signingKey',
    method: 'GET',
    path: '/config-file-signing-key',
    tag: 'Version',
    summary: "The public key that verifies the signature of this service's configuration files.",
    mutates: false,
    response: { kind: 'json', data: signingKeySchema, description: 'The ES256 (ECDSA P-256) public key, SPKI PEM.' },
    handler: async ({ ctx }) => ctx.secrets.signingKey,
  }),
];
