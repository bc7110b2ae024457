import { z } from 'zod';
import { uuidField } from './fields';
import type { Violation } from './violations';

/**
 * Shapes shared by every response. Record schemas of resources live beside their payloads. Record
 * schemas are not strict: a client ignores fields a newer service adds.
 */

/** One entry of the envelope's errors; a Violation is one. */
export const errorEntrySchema = z.object({
  code: z.string(),
  message: z.string(),
  field: z.string().optional(),
});

export const violationSchema = z.object({
  code: z.string(),
  message: z.string(),
  field: z.string(),
  severity: z.literal('warning').optional(),
});
export const violationsSchema = z.array(violationSchema) satisfies z.ZodType<Violation[]>;

/** Every JSON response: { data, success, errors }. errors is null on success. */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({
    data,
    success: z.boolean(),
    errors: z.array(errorEntrySchema).nullable(),
  });
}

/** Object lists (configurations, devices, users). page starts at 1; totalCount counts every match. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.int().min(1),
    limit: z.int().min(1),
    totalCount: z.int().min(0),
  });
}
export type Page<T> = { items: T[]; page: number; limit: number; totalCount: number };

/** GET /v1/version and GET /v1/organizations/{orgId}/version. */
export const versionSchema = z.object({
  apiVersion: z.string(),
  serviceVersion: z.string(),
});

/** GET /v1/config-file-signing-key: the service's root key, which certifies organization keys (SPKI PEM). */
export const signingKeySchema = z.object({
  keyId: z.string(),
  algorithm: z.literal('ES256'),
  publicKeyPem: z.string(),
});
export type SigningKey = z.output<typeof signingKeySchema>;

/** GET /v1/organizations/{orgId}/config-file-signing-key: the key that signs the organization's files. */
export const organizationSigningKeySchema = z.object({
  orgId: z.string(),
  keyId: z.string(),
  algorithm: z.literal('ES256'),
  publicKeyPem: z.string(),
  /** The organization key certificate (base64): the root key vouching for publicKeyPem; every file carries it. */
  certificate: z.string(),
  /** The key id of the root key (GET /v1/config-file-signing-key) that signed the certificate. */
  rootKeyId: z.string(),
});
export type OrganizationSigningKey = z.output<typeof organizationSigningKeySchema>;

/** DELETE configurations/{id}: the result of the delete attempt. */
export const deleteResultSchema = z.object({
  id: uuidField,
  deleted: z.boolean(),
});
