import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeForWire, type OutboxView } from '../../../../contract/index';
import type { Core } from '../../../../main/core';
import { Outbox, type OutboxEntry } from '../../../../main/engine/outbox/outbox';
import { provisioningPaths } from '../../../../main/engine/paths';
import { createCoreIn, scriptedDeviceSource } from '../../../fixtures/test-core';

/**
 * Issue 30: `outbox.get` as a host calls it (the wire's parse, then the core): the first page of
 * 100 with the counts of the whole outbox when asked for nothing, the next page by its cursor, and
 * a clear refusal of a cursor or page size it cannot serve.
 */

const COUNT = 150;
let dataDir = '';
let core: Core;
const made: OutboxEntry[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'outbox-get-'));
  const filling = new Outbox({
    dir: provisioningPaths(join(dataDir, 'provisioning')).outbox,
    sender: { send: () => Promise.reject(new Error('not sending yet')) },
  });
  for (let i = 0; i < COUNT; i += 1) {
    made.push(
      await filling.enqueue({
        kind: 'firmware',
        serviceUrl: 'http://127.0.0.1:9',
        orgId: 'org-1',
        serialNumber: `EPC${String(i).padStart(6, '0')}`,
        payload: {
          firmwareFileSuccessfullyDeployed: true,
          error: null,
          firmwareVersion: '1.1.0',
          applyTimeStamp: '2026-01-01T00:00:00.000Z',
        },
      }),
    );
  }
  // Signed out: the core's outbox finds no credentials and leaves every entry waiting.
  core = await createCoreIn(dataDir, { host: 'test', deviceSource: scriptedDeviceSource() });
}, 120_000);
afterAll(async () => {
  await core?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function get(input: unknown): Promise<OutboxView> {
  const outcome = await invokeForWire(core, 'outbox.get', input);
  if (!outcome.ok) throw new Error(`outbox.get: ${outcome.error.code} ${outcome.error.message}`);
  return outcome.value as OutboxView;
}

async function refusal(input: unknown): Promise<{ code: string; message: string }> {
  const outcome = await invokeForWire(core, 'outbox.get', input);
  if (outcome.ok) throw new Error(`outbox.get accepted ${JSON.stringify(input)}`);
  return outcome.error;
}

describe('outbox.get, a page at a time', () => {
  it('asked for nothing, answers the oldest 100 and the counts of all', async () => {
    const first = await get({});
    expect(first.entries.map((e) => e.id)).toEqual(made.slice(0, 100).map((e) => e.id));
    expect(first).toMatchObject({
      pendingCount: COUNT,
      rejectedCount: 0,
      totalCount: COUNT,
      offset: 0,
      limit: 100,
      oldestPendingSince: made[0]!.createdAt,
      nextCursor: made[99]!.id,
    });
    expect(first.entries[3]).toMatchObject({ serialNumber: 'EPC000003', state: 'pending' });
  });

  it('follows the cursor to the next page, and says when it is the last', async () => {
    const first = await get({ limit: 40 });
    const second = await get({ after: first.nextCursor, limit: 500 });
    expect(second.entries.map((e) => e.id)).toEqual(made.slice(40).map((e) => e.id));
    expect(second).toMatchObject({ offset: 40, limit: 500, nextCursor: null, totalCount: COUNT });
  });

  it.each([
    [{ limit: 501 }, /limit: entries per page: at most 500; ask for the next page with after/],
    [{ limit: 0 }, /limit: entries per page: at least 1/],
    [{ limit: 2.5 }, /limit: entries per page: a whole number from 1 to 500/],
    [{ limit: '10' }, /limit: entries per page: a whole number from 1 to 500/],
    [{ after: '../../secrets.json' }, /after: not an outbox cursor: pass a page's nextCursor as it came/],
    [{ after: '' }, /after: not an outbox cursor/],
    [{ after: 'x'.repeat(101) }, /after: not an outbox cursor/],
    [{ page: 2 }, /Invalid input for outbox.get/],
  ])('refuses %j, saying what is wrong', async (input, words) => {
    const error = await refusal(input);
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toMatch(words);
  });
});
