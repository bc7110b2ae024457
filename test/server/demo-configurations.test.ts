import { beforeAll, describe, expect, it } from 'vitest';
import { demoManufacturingRecords, seedDemo } from '../../server';
import { demoConfigurations } from '../../server/seed/demo-configurations';
import { DEMO_FLOWS } from '../../server/seed/typical-flows';
import { serviceForTests } from './helpers/service-env';

interface ListedConfiguration {
  id: string;
  name: string;
  devices: { serialNumber: string; deviceConfigurationType: string }[];
}

/** The demo organization as a new user of the local workspace finds it: the six typical flows, complete. */
describe('demo configurations', () => {
  const env = serviceForTests('pglite');
  const list = async () =>
    (await env.call('GET', '/configurations?Limit=30')).json.data as {
      items: ListedConfiguration[];
      totalCount: number;
    };

  beforeAll(async () => {
    await seedDemo(env.db, { configurations: true });
  });

  it('holds the six typical flows, each with devices of its own', async () => {
    const { items, totalCount } = await list();
    expect(totalCount).toBe(6);
    expect(items.map((c) => c.name).sort()).toEqual(DEMO_FLOWS.map((f) => f.configuration.name).sort());
    const serials = items.flatMap((c) => c.devices.map((d) => d.serialNumber));
    expect(new Set(serials).size).toBe(serials.length);
    for (const flow of DEMO_FLOWS) {
      const found = items.find((c) => c.name === flow.configuration.name);
      expect(found?.devices.map((d) => d.deviceConfigurationType)).toEqual(
        flow.devices.map((d) => d.payload.deviceConfigurationType),
      );
    }
  });

  it('makes every demo configuration complete, so its files can be downloaded', async () => {
    for (const { id } of (await list()).items) {
      const status = await env.call('GET', `/configurations/validate/${id}`);
      expect(status.status, JSON.stringify(status.json)).toBe(200);
      expect(status.json.data).toMatchObject({ complete: true, errors: [] });
    }
  });

  it('keeps their devices in the demo fleet’s manufacturing records, apart from the free fleet', () => {
    const records = new Map(demoManufacturingRecords().map((r) => [r.serialNumber, r.deviceType]));
    for (const { seeded } of demoConfigurations()) {
      for (const device of seeded.devices) {
        expect(records.get(device.payload.serialNumber)).toBe(device.deviceType);
        expect(Number(device.payload.serialNumber.slice(-6))).toBeGreaterThanOrEqual(201);
      }
    }
  });

  it('changes nothing when seeded again, and does not bring back one the user deleted', async () => {
    await seedDemo(env.db, { configurations: true });
    const before = await list();
    expect(before.totalCount).toBe(6);
    const removed = before.items[0]!;
    expect((await env.call('DELETE', `/configurations/${removed.id}`)).status).toBeLessThan(300);
    await seedDemo(env.db, { configurations: true });
    const after = await list();
    expect(after.totalCount).toBe(5);
    expect(after.items.map((c) => c.name)).not.toContain(removed.name);
  });
});
