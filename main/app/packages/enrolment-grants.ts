import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { CarriedEnrolment } from '../../../domain/files/work-package-confirmations';
import { enrolmentGrantSchema } from '../../../domain/workstation-keys';
import { errnoCode } from '../../../platform/durable-file';
import type { Ledger } from '../ledger';

/**
 * The enrolments a plant laptop carries back in its confirmations file: for each organization it
 * imported a package of, its ledger key with the key's proof and the package's one-time grant (the
 * newest package's grant that has not expired). The service takes one when the file is imported.
 */

const importRecordSchema = z.object({
  importedAt: z.string(),
  origin: z.object({ serviceUrl: z.string(), orgId: z.string() }),
  enrolmentGrant: enrolmentGrantSchema.optional(),
});

export async function carriedEnrolments(options: { recordDir: string; ledger: Pick<Ledger, 'enrolment'>; workstation: string; now?: Date }): Promise<CarriedEnrolment[]> {
  let names: string[];
  try {
    names = (await readdir(options.recordDir)).filter((name) => name.endsWith('.json'));
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return [];
    throw error;
  }
  const now = (options.now ?? new Date()).getTime();
  const newest = new Map<string, z.infer<typeof importRecordSchema> & { enrolmentGrant: NonNullable<z.infer<typeof importRecordSchema>['enrolmentGrant']> }>();
  for (const name of names) {
    const parsed = importRecordSchema.safeParse(JSON.parse(await readFile(join(options.recordDir, name), 'utf8').catch(() => 'null')));
    if (!parsed.success || !parsed.data.enrolmentGrant || Date.parse(parsed.data.enrolmentGrant.expiresAt) <= now) continue;
    const record = { ...parsed.data, enrolmentGrant: parsed.data.enrolmentGrant };
    const account = `${record.origin.serviceUrl}\u0000${record.origin.orgId}`;
    const kept = newest.get(account);
    if (!kept || kept.importedAt < record.importedAt) newest.set(account, record);
  }
  const enrolments: CarriedEnrolment[] = [];
  for (const record of newest.values()) {
    const enrolment = await options.ledger.enrolment(record.origin.orgId, options.workstation);
    enrolments.push({
      serviceUrl: record.origin.serviceUrl,
      orgId: record.origin.orgId,
      workstation: enrolment.workstation,
      publicKey: enrolment.publicKey,
      proof: enrolment.proof,
      grant: { grantId: record.enrolmentGrant.grantId, token: record.enrolmentGrant.token },
    });
  }
  return enrolments;
}
