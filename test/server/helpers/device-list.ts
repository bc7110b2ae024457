import { expect } from 'vitest';
import type { TestEnv } from '../harness';

/** One page of the device list as the interface answers it: its serial numbers and the totalCount. */
export interface Listed {
  serials: string[];
  totalCount: number;
}

/** GET /devices?`query` in the test's organization, which must answer 200. */
export async function listed(env: TestEnv, query: string): Promise<Listed> {
  const response = await env.call('GET', `/devices?${query}`);
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return {
    serials: response.json.data.items.map((d: { serialNumber: string }) => d.serialNumber),
    totalCount: response.json.data.totalCount,
  };
}
