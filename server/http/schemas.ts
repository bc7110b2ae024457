import { z } from 'zod';

/** Path parameters shared by the routes. */
export const orgParams = z.object({ orgId: z.string() });
export const idParams = z.object({ orgId: z.string(), id: z.uuid({ error: 'must be a uuid' }) });
export const serialParams = z.object({ orgId: z.string(), serialNumber: z.string().min(1).max(64) });

/** A JSON-serialisable record returned in `data`: documented per operation in docs/service-api.md. */
export const errorEntrySchema = z.object({ code: z.string(), message: z.string(), field: z.string().optional() });
