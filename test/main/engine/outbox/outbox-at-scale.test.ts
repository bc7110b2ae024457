import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Outbox } from '../../../../main/engine/outbox/outbox';
import { clientConfirmationSender } from '../../../../main/engine/outbox/outbox-sender';
import { createServiceClient } from '../../../../main/cloud';
import { DEMO_ORG_ID } from '../../../../server';
import { checkDrained, countingSender, fillOutbox, registeredSerials } from '../../../fixtures/outbox-at-scale';
import { startDemoService } from '../../../fixtures/test-core';

/**
 * Issue 30: an outbox with many confirmations waiting (500 here, 10,000 in the workstation-scale
 * bench) drains to the real service in the order they were made, none lost, none sent twice.
 */

const COUNT = 500;
let demo: Awaited<ReturnType<typeof startDemoService>>;
let dir = '';

beforeAll(async () => {
  demo = await startDemoService({ configurations: true });
  dir = await mkdtemp(join(tmpdir(), 'outbox-at-scale-'));
}, 120_000);
afterAll(async () => {
  await demo?.service.close();
  await rm(dir, { recursive: true, force: true });
});

describe(`an outbox with ${COUNT} confirmations waiting`, () => {
  it('drains in order, each recorded once, nothing left behind', { timeout: 300_000 }, async () => {
    const { service, adminKey } = demo;
    const serials = await registeredSerials(service.db, DEMO_ORG_ID);
    const filling = new Outbox({ dir, sender: { send: () => Promise.reject(new Error('not sending yet')) } });
    const queued = await fillOutbox(filling, {
      count: COUNT,
      serials,
      serviceUrl: service.url,
      orgId: DEMO_ORG_ID,
      firstAppliedAt: Date.UTC(2026, 0, 1),
    });
    expect((await filling.pending()).count).toBe(COUNT);

    const client = createServiceClient({ baseUrl: service.url, orgId: DEMO_ORG_ID, apiKey: adminKey });
    const sender = countingSender(clientConfirmationSender(() => client));
    const outbox = new Outbox({ dir, sender });
    const report = await outbox.syncNow();
    expect(report.rejected).toEqual([]);
    expect(report.retrying).toEqual([]);
    // Sent oldest first: the pass's order is the order they were made.
    expect(report.delivered).toEqual(queued.map((q) => q.id));

    expect(await checkDrained(service.db, DEMO_ORG_ID, queued, sender.sends)).toEqual({
      lost: 0,
      doubled: 0,
      outOfOrder: 0,
      stored: COUNT,
    });
    expect(await readdir(join(dir, 'pending'))).toEqual([]);
    // A second pass finds nothing to send and sends nothing again.
    expect((await outbox.syncNow({ force: true })).delivered).toEqual([]);
    expect([...sender.sends.values()].every((n) => n === 1)).toBe(true);
  });
});
