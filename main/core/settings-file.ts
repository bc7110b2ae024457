import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../platform/durable-file';

/** What the core remembers between runs, apart from secrets: where the technician signed in last. */
const settingsSchema = z.object({
  lastServiceUrl: z.string().nullable().default(null),
  lastOrgId: z.string().nullable().default(null),
  /** The account to resume at start: a service sign-in (its key in the SecretStore) or the local workspace. */
  resume: z
    .discriminatedUnion('kind', [
      z.object({
        kind: z.literal('service'),
        serviceUrl: z.string(),
        orgId: z.string(),
        /** What the service said of the key when it was saved (the CLI's status shows them without asking). */
        keyName: z.string().nullable().optional(),
        role: z.string().nullable().optional(),
      }),
      z.object({ kind: z.literal('local') }),
    ])
    .nullable()
    .default(null),
  /** Serial ports asked beside USB 0xD101, as globs (RS-485 adapters, simulators' ptys). */
  portGlobs: z.array(z.string().min(1).max(1024)).max(32).default([]),
});
export type CoreSettings = z.infer<typeof settingsSchema>;

export class SettingsFile {
  constructor(private readonly path: string) {}

  async read(): Promise<CoreSettings> {
    try {
      const parsed = settingsSchema.safeParse(JSON.parse(await readFile(this.path, 'utf8')));
      if (parsed.success) return parsed.data;
    } catch {
      // Missing or damaged: start from defaults.
    }
    return settingsSchema.parse({});
  }

  async update(change: Partial<CoreSettings>): Promise<CoreSettings> {
    const next = { ...(await this.read()), ...change };
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.path, `${JSON.stringify(next, null, 2)}\n`);
    return next;
  }
}
