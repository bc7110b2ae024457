import { beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/database';
import { cloneFlow, srcpToEpcOverIsm } from '../fixtures/typical-flows';
import { backends, buildFlowConfiguration, downloadConfigFile, register, rootKeyPemOf } from './harness';
import { serviceForTests } from './helpers/service-env';

/**
 * A configuration's file state (every device's content) is what each device's file is made from.
 * A Station starting a shift asks for every device's file one after another: the service computes
 * the state once for all of them, not once each, and a change is in the next files all the same.
 */
describe.each(backends())('a configuration file state shared by its devices on %s', (backend) => {
  const env = serviceForTests(backend);
  let publicKeyPem: string;
  let configurationId: string;
  const flow = cloneFlow(srcpToEpcOverIsm);
  // The flow's sender and receiver, and a second receiver beside the first.
  const receiver = flow.devices.find((d) => d.payload.deviceConfigurationType === 'Receiver')!;
  const secondReceiver = { ...receiver.payload, serialNumber: 'EPC000102' };
  const serials = [...flow.devices.map((d) => d.payload.serialNumber as string), secondReceiver.serialNumber];
  /** Statements that read a configuration's sealed Wifi passwords: one per computation of its file state. */
  let stateComputations = 0;

  beforeAll(async () => {
    publicKeyPem = await rootKeyPemOf(env);
    await register(env, serials);
    configurationId = await buildFlowConfiguration(env, flow);
    const added = await env.call('POST', `/configurations/${configurationId}/devices`, { body: secondReceiver });
    expect(added.status, JSON.stringify(added.json.errors)).toBe(201);
    const db = env.db;
    const transaction = db.transaction.bind(db);
    db.transaction = <T>(work: (tx: Queryable) => Promise<T>) =>
      transaction((tx) =>
        work({
          ...tx,
          query: (sql: string, params?: Parameters<Queryable['query']>[1]) => {
            if (/^SELECT serial_number, wifi_password_sealed FROM configuration_devices/.test(sql))
              stateComputations += 1;
            return tx.query(sql, params);
          },
        } as Queryable),
      );
  });

  it("computes it once for all the configuration's files, and again after a change, which the files then carry", async () => {
    expect(serials.length).toBeGreaterThanOrEqual(3);
    stateComputations = 0;
    // One after another, as a Station's lanes take them (eight at once would share one computation
    // in flight, or not, by timing).
    const first = [];
    for (const serial of serials) first.push(await downloadConfigFile(env, serial, publicKeyPem));
    expect(stateComputations).toBe(1);

    const changed = await env.call('PATCH', `/configurations/${configurationId}`, {
      body: { timeoutConfiguration: 3000 },
    });
    expect(changed.status).toBe(200);
    stateComputations = 0;
    for (const serial of serials) {
      const file = await downloadConfigFile(env, serial, publicKeyPem);
      expect(file.content.safety.timeoutConfiguration).toBe('3000ms');
      expect(file.syncId).not.toBe(first.find((f) => f.content.serialNumber === serial)?.syncId);
    }
    expect(stateComputations).toBe(1);
  });
});
