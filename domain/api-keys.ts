import { z } from 'zod';
import { apiKeyRoleSchema, regionSchema } from './enums';
import { dateTimeField } from './fields';

/** PUT apiKeys/{keyName}/role: the body is a bare JSON string such as "Service". */
export const apiKeyRoleBodySchema = apiKeyRoleSchema;

/** POST apiKeys/validate. A null or missing key is valid input and simply validates as false. */
export const apiKeyValidateSchema = z.strictObject({
  apiKey: z
    .string()
    .nullish()
    .transform((key) => key ?? null),
});

/**
 * An API key as listed. `key` is absent unless IncludeApiKeys=true; then it is null for
 * KeyFormat=None (or when the service cannot show it), the end of the key for Masked
 * ('••••••••3f9a'), the whole key for Visible.
 */
export const apiKeyRecordSchema = z.object({
  name: z.string(),
  role: apiKeyRoleSchema,
  createdAt: dateTimeField,
  lastUsedAt: dateTimeField.nullable(),
  /** Ours: when a key a rotation replaced stops working (null for a key that does not end). */
  expiresAt: dateTimeField.nullable().optional(),
  key: z.string().nullable().optional(),
});
export type ApiKeyRecord = z.output<typeof apiKeyRecordSchema>;

/** Result of POST apiKeys/validate. Every field but valid is null for an invalid key. */
export const apiKeyValidationSchema = z.object({
  valid: z.boolean(),
  organizationId: z.string().nullable(),
  keyName: z.string().nullable(),
  role: apiKeyRoleSchema.nullable(),
  /**
   * Our service's extension: the organization's name and region, so a client checks the ISM
   * channel rule of the right region while a technician types. Optional: a service without them
   * still validates keys.
   */
  organizationName: z.string().nullable().optional(),
  region: regionSchema.nullable().optional(),
});
