import { z } from 'zod';

/** Path parameters shared by the routes. */
export const orgParams = z.object({ orgId: z.string() });
export const idParams = z.object({ orgId: z.string(), id: z.uuid({ error: 'must be a uuid' }) });
export const serialParams = z.object({ orgId: z.string(), serialNumber: z.string().min(1).max(64) });
