import { z } from 'zod';

/**
 * What the service issued under one syncId for one device: the settings its file carried, so a
 * workstation can say what an apply changes against the file a device holds, by its syncId alone.
 * `settings` is null for a syncId the service issued before it kept them.
 */
export const issuedSyncIdSchema = z.object({
  syncId: z.string(),
  serialNumber: z.string(),
  configurationId: z.string().nullable(),
  issuedAt: z.string(),
  settings: z.record(z.string(), z.unknown()).nullable(),
});
export type IssuedSyncIdRecord = z.infer<typeof issuedSyncIdSchema>;
