import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../main/cloud';
import type { CliCore } from '../../../main/core';
import { Outbox, type OutboxEntry } from '../../../main/engine/outbox/outbox';
import { provisioningPaths } from '../../../main/engine/paths';
import { cliCoreFor } from '../../fixtures/cli-core';

/**
 * Issue 27: the CLI's `outbox list` and `outbox sync` through the door (createCliCore's
 * `outbox.records` and `outbox.sync`). The entries come whole, as kept on disk; a pass sends with
 * the clients the host opens for the services the entries name, and says which entries wait for a
 * sign-in and which a key was at hand for but did not get through. The one service with a key is a
 * loopback port nobody listens on: a real refused connection, so its entries are to be retried.
 */

const NOBODY_LISTENS = 'http://127.0.0.1:9';
const ELSEWHERE = 'https://provisioning.example.test';

let dataDir = '';
let core: CliCore | undefined;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cli-core-outbox-'));
});
afterEach(async () => {
  await core?.close();
  core = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

async function enqueue(serviceUrl: string, orgId: string, serialNumber: string): Promise<OutboxEntry> {
  const filling = new Outbox({
    dir: provisioningPaths(dataDir).outbox,
    sender: { send: () => Promise.reject(new Error('not sending yet')) },
  });
  return filling.enqueue({
    kind: 'firmware',
    serviceUrl,
    orgId,
    serialNumber,
    payload: {
      firmwareFileSuccessfullyDeployed: true,
      error: null,
      firmwareVersion: '1.1.0',
      applyTimeStamp: '2026-01-01T00:00:00.000Z',
    },
  });
}

function cliCore(openClient: (serviceUrl: string, orgId: string) => Promise<ServiceClient | undefined>): CliCore {
  core = cliCoreFor(dataDir, undefined, { openClient });
  return core;
}

describe("the CLI core's outbox channels", () => {
  it('outbox.records answers the entries whole, as kept, a page at a time', async () => {
    const made = [
      await enqueue(NOBODY_LISTENS, 'org-1', 'EPC000101'),
      await enqueue(NOBODY_LISTENS, 'org-1', 'EPC000102'),
      await enqueue(ELSEWHERE, 'org-2', 'EPC000103'),
    ];
    const opened: string[] = [];
    const outbox = cliCore(async (serviceUrl) => {
      opened.push(serviceUrl);
      return undefined;
    });
    const first = await outbox.invoke('outbox.records', { limit: 2 });
    expect(first.entries).toEqual(made.slice(0, 2));
    expect(first.nextCursor).toBe(made[1]!.id);
    const second = await outbox.invoke('outbox.records', { after: first.nextCursor, limit: 2 });
    expect(second.entries).toEqual(made.slice(2));
    expect(second.nextCursor).toBeNull();
    // Printed as the file holds it: the same fields in the same order.
    const file = JSON.parse(
      await readFile(join(provisioningPaths(dataDir).outbox, 'pending', `${made[2]!.id}.json`), 'utf8'),
    );
    expect(JSON.stringify(second.entries[0])).toBe(JSON.stringify(file));
    // Reading sends nothing and opens no client.
    expect(opened).toEqual([]);
  });

  it('outbox.records refuses a page size it cannot serve, saying the most', async () => {
    const outbox = cliCore(async () => undefined);
    await expect(outbox.invoke('outbox.records', { limit: 501 })).rejects.toThrow(/at most 500/);
  });

  it('outbox.sync sends with the clients opened for the entries, and says what waits and why', async () => {
    const reachable = await enqueue(NOBODY_LISTENS, 'org-1', 'EPC000101');
    await enqueue(ELSEWHERE, 'org-2', 'EPC000102');
    await enqueue(ELSEWHERE, 'org-2', 'EPC000103');
    const asked: string[] = [];
    const outbox = cliCore(async (serviceUrl, orgId) => {
      asked.push(`${orgId}@${serviceUrl}`);
      // A key is held for the first service only.
      return serviceUrl === NOBODY_LISTENS
        ? createServiceClient({ baseUrl: serviceUrl, orgId, apiKey: 'k' })
        : undefined;
    });
    const sync = await outbox.invoke('outbox.sync', {});
    // Each service and organization the entries name is asked for once.
    expect(asked.sort()).toEqual([`org-1@${NOBODY_LISTENS}`, `org-2@${ELSEWHERE}`]);
    expect(sync).toMatchObject({ skippedLocked: false, delivered: [], rejected: [] });
    expect(sync.retrying).toContain(reachable.id);
    expect(sync.pending).toMatchObject({ count: 3, rejected: 0, unreadable: 0, quarantined: 0 });
    expect(sync.waitingForSignIn).toEqual([{ serviceUrl: ELSEWHERE, orgId: 'org-2', count: 2 }]);
    expect(sync.notSent.map((entry) => [entry.serialNumber, entry.state])).toEqual([['EPC000101', 'pending']]);
    expect(sync.notSent[0]!.lastError).toMatch(/\S/);
    expect(sync.notSent[0]!.confirms).toBeDefined();
  });
});
