import { beforeAll, describe, expect, it } from 'vitest';
import { listDeviceRecords } from '../../../server/store/devices';
import { register } from '../harness';
import { serviceForTests } from '../helpers/service-env';

/** The device list's total: counted, or read off a page that shows where the list ends. */
describe('device list totals', () => {
  const env = serviceForTests('pglite');
  const page = (limit: number, pageNumber: number, search?: string) =>
    listDeviceRecords(env.db, env.orgId, {
      search,
      serial: undefined,
      configurableOnly: false,
      limit,
      page: pageNumber,
    });

  beforeAll(async () => {
    await register(env, ['EPC000101', 'EPC000102', 'EPC000103', 'NSCP000101', 'SRCP000101', 'SRCP000102']);
  });

  it('gives the whole count on every page: full, short, past the end and empty', async () => {
    const cases: [number, number, number][] = [
      [3, 1, 3],
      [3, 2, 3],
      [3, 3, 0],
      [4, 2, 2],
      [10, 1, 6],
      [6, 1, 6],
    ];
    for (const [limit, pageNumber, length] of cases) {
      const { items, totalCount } = await page(limit, pageNumber);
      expect({ limit, pageNumber, length: items.length, totalCount }).toEqual({
        limit,
        pageNumber,
        length,
        totalCount: 6,
      });
    }
    expect(await page(5, 1, 'no-such-device')).toEqual({ items: [], totalCount: 0 });
    expect((await page(5, 2, 'srcp')).totalCount).toBe(2);
  });
});
