import { z } from 'zod';
import { userRoleSchema } from './enums';
import { dateTimeField, uuidField } from './fields';
import { boundedText, TEXT_LIMITS } from './text-limits';

/** POST users. The interface types email as nullable, but a user cannot be invited without one. */
export const userRegisterSchema = z.strictObject({
  email: boundedText(TEXT_LIMITS.email).pipe(z.email()),
  userRole: userRoleSchema,
});
export type UserRegisterInput = z.input<typeof userRegisterSchema>;

/** PATCH users/{id}/role: the body is a bare JSON string such as "Admin". */
export const userRoleBodySchema = userRoleSchema;

/** A user as the service returns it. firstName/lastName stay null until the user signs in once. */
export const userRecordSchema = z.object({
  id: uuidField,
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  userRole: userRoleSchema,
  isActive: z.boolean(),
  lastActivityAt: dateTimeField.nullable(),
  createdAt: dateTimeField,
});
export type UserRecord = z.output<typeof userRecordSchema>;
