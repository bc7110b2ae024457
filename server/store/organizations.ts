import { z } from 'zod';
import type { Region } from '../../domain/enums';
import type { Queryable } from '../db/database';

/** Organization ids are path segments: keep them to URL-safe characters. */
export const organizationIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    'An organization id is 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit.',
  );

export interface Organization {
  id: string;
  name: string;
  region: Region;
  createdAt: string;
}

interface OrganizationRow {
  id: string;
  name: string;
  region: Region;
  created_at: Date;
}

const toOrganization = (row: OrganizationRow): Organization => ({
  id: row.id,
  name: row.name,
  region: row.region,
  createdAt: row.created_at.toISOString(),
});

export async function getOrganization(db: Queryable, id: string): Promise<Organization | undefined> {
  const { rows } = await db.query<OrganizationRow>('SELECT * FROM organizations WHERE id = $1', [id]);
  return rows[0] && toOrganization(rows[0]);
}

/** Creates the organization, or returns false when the id is taken. */
export async function createOrganization(
  db: Queryable,
  org: { id: string; name: string; region: Region },
): Promise<boolean> {
  const result = await db.query(
    'INSERT INTO organizations (id, name, region) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING',
    [org.id, org.name, org.region],
  );
  return result.rowCount === 1;
}
