import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../main/core';
import { issueKey } from '../../../server';
import { invokeForWire, type Channel, type ChannelInput, type LedgerVerifyProgress } from '../../../contract/index';
import { useScratchDir } from '../../fixtures/scratch';
import { coresPerFile, demoServicePerFile, scriptedDeviceSource } from '../../fixtures/test-core';

/**
 * Issue 27: the app (createCore) serves the ledger channels the CLI's `ledger verify|enrol|revoke`
 * use, through the contract as a transport calls them, against the real embedded service: a check
 * offline needs no sign-in, one that asks the service does, and a role is refused what the
 * service would refuse it.
 */

const scratch = useScratchDir('core-ledger');
const demo = demoServicePerFile();
const cores = coresPerFile();
let operatorKey: string;

async function startCore(name: string): Promise<Core> {
  return cores.open(join(scratch.dir, name), { host: 'test', resume: false, deviceSource: scriptedDeviceSource() });
}

async function call<C extends Channel>(core: Core, channel: C, input: ChannelInput<C>) {
  return invokeForWire(core, channel, input);
}

beforeAll(async () => {
  operatorKey = await issueKey(demo.service.db, { orgId: 'demo', name: 'ledger-technician', role: 'Operator' });
});

describe("the app's ledger channels", () => {
  it('checks the ledger offline without a sign-in, and asks one for a check on the service', async () => {
    const core = await startCore('offline');
    const offline = await call(core, 'ledger.verify', { local: true });
    expect(offline).toMatchObject({
      ok: true,
      value: { ok: true, workstation: expect.stringMatching(/\S/), local: { ok: true, entries: 0 } },
    });
    expect(offline.ok && offline.value).not.toHaveProperty('service');
    expect(await call(core, 'ledger.verify', {})).toMatchObject({ ok: false, error: { code: 'NOT_SIGNED_IN' } });
    expect(await call(core, 'ledger.verify', { entries: ['ABC'] })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringContaining('not a ledger entry hash') },
    });
  });

  it("signed in, checks the organization's chain with its progress as events, and refuses a revocation to an Operator", async () => {
    const core = await startCore('signed-in');
    const signedIn = await call(core, 'session.signIn', {
      serviceUrl: demo.service.url,
      orgId: 'demo',
      apiKey: operatorKey,
    });
    expect(signedIn.ok).toBe(true);
    const stages: LedgerVerifyProgress['stage'][] = [];
    const stop = core.subscribe('ledger.verifyProgress', (progress) => stages.push(progress.stage));
    const checked = await call(core, 'ledger.verify', {});
    stop();
    expect(checked).toMatchObject({
      ok: true,
      value: { ok: true, local: { ok: true }, service: { sent: { received: 0 }, chain: { ok: true } } },
    });
    expect(stages[0]).toBe('read');
    expect(stages.at(-1)).toBe('service');
    expect(await call(core, 'ledger.revoke', { workstation: 'ws-1', reason: 'stolen' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_ALLOWED' },
    });
  });
});
