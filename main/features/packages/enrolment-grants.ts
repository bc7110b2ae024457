import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { CarriedEnrolment } from '../../../domain/files/work-package-confirmations';
import { enrolmentGrantSchema } from '../../../domain/workstation-keys';
import { errnoCode } from '../../../platform/durable-file';
import type { Ledger } from '../../engine/ledger';

/**
 * The enrolments a plant laptop carries back in its confirmations file: for each organization it
 * imported a package of, its ledger key with the key's proof and the package's one-time grant (the
 * newest package's grant that has not expired). The service takes one when the file is imported.
 */

const importRecordSchema = z.object({
  packageId: z.string().optional(),
  importedAt: z.string(),
  origin: z.object({ serviceUrl: z.string(), orgId: z.string() }),
  configuration: z.object({ name: z.string() }).optional(),
  /** Imported on a laptop that was not signed in (the package then names its offline account). */
  notSignedIn: z.boolean().optional(),
  enrolmentGrant: enrolmentGrantSchema.optional(),
});
export type ImportRecord = z.infer<typeof importRecordSchema>;

/** The records of the packages imported here (one JSON file each); an unreadable one is passed over. */
export async function readImportRecords(recordDir: string): Promise<ImportRecord[]> {
  let names: string[];
  try {
    names = (await readdir(recordDir)).filter((name) => name.endsWith('.json'));
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return [];
    throw error;
  }
  const records: ImportRecord[] = [];
  for (const name of names.sort()) {
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(join(recordDir, name), 'utf8'));
    } catch {
      continue;
    }
    const parsed = importRecordSchema.safeParse(raw);
    if (parsed.success) records.push(parsed.data);
  }
  return records;
}

export async function carriedEnrolments(options: {
  recordDir: string;
  ledger: Pick<Ledger, 'enrolment'>;
  workstation: string;
  now?: Date;
}): Promise<CarriedEnrolment[]> {
  const now = (options.now ?? new Date()).getTime();
  const newest = new Map<string, ImportRecord & { enrolmentGrant: NonNullable<ImportRecord['enrolmentGrant']> }>();
  for (const parsed of await readImportRecords(options.recordDir)) {
    if (!parsed.enrolmentGrant || Date.parse(parsed.enrolmentGrant.expiresAt) <= now) continue;
    const record = { ...parsed, enrolmentGrant: parsed.enrolmentGrant };
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
