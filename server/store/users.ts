import { randomUUID } from 'node:crypto';
import type { UserRecord, UserRole, UserSortOption } from '../../domain';
import type { Queryable } from '../db/database';
import { likePattern } from '../http/query';

interface Row {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  role: UserRole;
  is_active: boolean;
  last_activity_at: Date | null;
  created_at: Date;
}

const toRecord = (row: Row): UserRecord => ({
  id: row.id,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  userRole: row.role,
  isActive: row.is_active,
  lastActivityAt: row.last_activity_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
});

// Users without a first name yet (they never signed in) sort by their email.
const ORDER_BY: Record<UserSortOption, string> = {
  FirstNameASC: 'lower(COALESCE(first_name, email)) ASC, id ASC',
  FirstNameDESC: 'lower(COALESCE(first_name, email)) DESC, id DESC',
  LastActivityASC: 'last_activity_at ASC NULLS FIRST, id ASC',
  LastActivityDESC: 'last_activity_at DESC NULLS LAST, id DESC',
};

export async function listUsers(
  db: Queryable,
  orgId: string,
  query: {
    isActive: boolean | undefined;
    search: string | undefined;
    sort: UserSortOption;
    limit: number;
    page: number;
  },
): Promise<{ items: UserRecord[]; totalCount: number }> {
  const where = `org_id = $1 AND ($2::boolean IS NULL OR is_active = $2)
    AND ($3::text IS NULL OR email ILIKE $3 OR first_name ILIKE $3 OR last_name ILIKE $3 OR (first_name || ' ' || last_name) ILIKE $3)`;
  const params = [orgId, query.isActive ?? null, query.search === undefined ? null : likePattern(query.search)];
  const { rows } = await db.query<Row>(
    `SELECT * FROM users WHERE ${where} ORDER BY ${ORDER_BY[query.sort]} LIMIT $4 OFFSET $5`,
    [...params, query.limit, (query.page - 1) * query.limit],
  );
  const count = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE ${where}`, params);
  return { items: rows.map(toRecord), totalCount: count.rows[0]?.n ?? 0 };
}

export async function getUser(db: Queryable, orgId: string, id: string): Promise<UserRecord | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM users WHERE id = $1 AND org_id = $2', [id, orgId]);
  return rows[0] && toRecord(rows[0]);
}

export async function findUserByEmail(db: Queryable, orgId: string, email: string): Promise<UserRecord | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM users WHERE org_id = $1 AND lower(email) = lower($2)', [
    orgId,
    email,
  ]);
  return rows[0] && toRecord(rows[0]);
}

export async function insertUser(
  db: Queryable,
  input: { orgId: string; email: string; role: UserRole },
): Promise<void> {
  await db.query('INSERT INTO users (id, org_id, email, role) VALUES ($1, $2, $3, $4)', [
    randomUUID(),
    input.orgId,
    input.email,
    input.role,
  ]);
}

export async function reactivateUser(db: Queryable, id: string, role: UserRole): Promise<void> {
  await db.query('UPDATE users SET is_active = true, role = $2 WHERE id = $1', [id, role]);
}

export async function setUserRole(db: Queryable, orgId: string, id: string, role: UserRole): Promise<boolean> {
  const result = await db.query('UPDATE users SET role = $3 WHERE id = $1 AND org_id = $2', [id, orgId, role]);
  return result.rowCount > 0;
}

export async function deactivateUser(db: Queryable, orgId: string, id: string): Promise<boolean> {
  const result = await db.query('UPDATE users SET is_active = false WHERE id = $1 AND org_id = $2', [id, orgId]);
  return result.rowCount > 0;
}
