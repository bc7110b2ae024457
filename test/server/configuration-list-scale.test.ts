import { beforeAll, describe, expect, it } from 'vitest';
import type { ConfigurationSortOption } from '../../domain';
import { backends, type TestEnv } from './harness';
import { serviceForTests } from './helpers/service-env';

/**
 * The configuration list finds a page's ids on an index in the list's order and reads only that
 * page's records (migration 14, server/store/configurations.ts), and counts an unsearched list from
 * the count kept with the configurations (migration 15). Every page here, in every order
 * and with a search, is compared with what a plain ORDER BY … LIMIT … OFFSET over the
 * configurations table holds, after a bulk load with ties (names alike but for case, equal edit
 * times) and after creates and edits through the API.
 */
const LOADED = 700;
const LIMIT = 30;

const ORDERS: Record<ConfigurationSortOption, string> = {
  LastEditedASC: 'last_edited_at ASC, id ASC',
  LastEditedDESC: 'last_edited_at DESC, id DESC',
  ConfigNameASC: 'lower(name) ASC, id ASC',
  ConfigNameDESC: 'lower(name) DESC, id DESC',
};

interface Listed {
  ids: string[];
  totalCount: number;
}

async function listed(env: TestEnv, query: string): Promise<Listed> {
  const response = await env.call('GET', `/configurations?${query}`);
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return {
    ids: response.json.data.items.map((c: { id: string }) => c.id),
    totalCount: response.json.data.totalCount,
  };
}

/** The organization's configurations in `sort` order, read by a plain query. */
async function truth(env: TestEnv, sort: ConfigurationSortOption, search?: string): Promise<string[]> {
  const { rows } = await env.db.query<{ id: string }>(
    `SELECT id FROM configurations WHERE org_id = $1 AND ($2::text IS NULL OR name ILIKE $2) ORDER BY ${ORDERS[sort]}`,
    [env.orgId, search === undefined ? null : `%${search}%`],
  );
  return rows.map((row) => row.id);
}

/** The first pages, a middle one, the last two and one past the end, in every order. */
async function expectPagesMatch(env: TestEnv, search?: string): Promise<void> {
  for (const sort of Object.keys(ORDERS) as ConfigurationSortOption[]) {
    const expected = await truth(env, sort, search);
    const last = Math.max(1, Math.ceil(expected.length / LIMIT));
    const searched = search === undefined ? '' : `&Search=${encodeURIComponent(search)}`;
    for (const page of new Set([1, 2, Math.floor(last / 2), last - 1, last, last + 1].filter((p) => p >= 1))) {
      expect({
        sort,
        page,
        ...(await listed(env, `SortOptions=${sort}&Limit=${LIMIT}&Page=${page}${searched}`)),
      }).toEqual({
        sort,
        page,
        ids: expected.slice((page - 1) * LIMIT, page * LIMIT),
        totalCount: expected.length,
      });
    }
  }
}

describe.each(backends())('the configuration list at scale on %s', (backend) => {
  const env = serviceForTests(backend);

  beforeAll(async () => {
    // A bulk load in one statement, with ties in both orders: every name comes in two cases, and
    // fifty configurations share each edit time.
    await env.db.query(
      `INSERT INTO configurations (id, org_id, name, settings, created_at, last_edited_at, record)
       SELECT id, $1, name, '{}'::jsonb, at, at, jsonb_build_object('id', id, 'name', name)
       FROM generate_series(1, $2::int) AS i
       CROSS JOIN LATERAL (SELECT gen_random_uuid() AS id,
                                  CASE WHEN i % 2 = 0 THEN 'Line ' ELSE 'LINE ' END || (i / 2) AS name,
                                  timestamptz '2026-01-01' + (i % 14) * interval '1 minute' AS at) AS made`,
      [env.orgId, LOADED],
    );
  });

  it('pages in every order hold what a plain ORDER BY over the configurations holds, and the count is right', async () => {
    expect((await truth(env, 'LastEditedDESC')).length).toBeGreaterThanOrEqual(LOADED);
    await expectPagesMatch(env);
  });

  it('pages a search by name alike', async () => {
    // 'ine 1' is in the names Line 1, Line 10 … Line 199 in both cases: more than a page.
    expect((await truth(env, 'ConfigNameASC', 'ine 1')).length).toBeGreaterThan(2 * LIMIT);
    await expectPagesMatch(env, 'ine 1');
    expect(await listed(env, 'Search=no+such+line')).toEqual({ ids: [], totalCount: 0 });
  });

  it('keeps pages right as configurations are created, edited and deleted through the API', async () => {
    const created: string[] = [];
    for (const name of ['line 5', 'Zeta', 'alpha']) {
      const response = await env.call('POST', '/configurations', { body: { name } });
      expect(response.status, JSON.stringify(response.json)).toBe(201);
      created.push(response.json.data.id as string);
    }
    const [first] = await truth(env, 'LastEditedASC');
    // The oldest configuration, edited now, moves to the other end of the edit orders.
    const edited = await env.call('PATCH', `/configurations/${first}`, { body: { name: 'Line 5' } });
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);
    expect((await listed(env, `SortOptions=LastEditedDESC&Limit=1`)).ids).toEqual([first]);
    expect((await env.call('DELETE', `/configurations/${created[1]}`)).status).toBe(200);
    await expectPagesMatch(env);
    await expectPagesMatch(env, 'line 5');
  });

  it('keeps the count of configurations (migration 15) through a bulk delete, and refuses to move one to another organization', async () => {
    await env.db.query("DELETE FROM configurations WHERE org_id = $1 AND name ILIKE 'line 1%'", [env.orgId]);
    // A write through the service after the one behind its back: the read cache drops the lists it kept.
    expect((await env.call('POST', '/configurations', { body: { name: 'after the bulk delete' } })).status).toBe(201);
    const kept = await env.db.query<{ n: number }>(
      'SELECT configurations AS n FROM configuration_counts WHERE org_id = $1',
      [env.orgId],
    );
    expect(kept.rows[0]?.n).toBe((await truth(env, 'LastEditedDESC')).length);
    await expectPagesMatch(env);
    await expect(
      env.db.query("UPDATE configurations SET org_id = 'elsewhere' WHERE org_id = $1", [env.orgId]),
    ).rejects.toThrow(/organization does not change/);
  });
});
