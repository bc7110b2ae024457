import { describe, expect, it } from 'vitest';
import { CoreError, parseChannelInput } from '../../../../contract/index';
import { jobsHandlers, type AttachedForTargets, type JobsHandlerDeps } from '../../../../main/core/handlers/jobs';

/** The jobs channels over a fake engine and a fake bench; what the handlers decide is what is checked. */
function handlers(attached: AttachedForTargets[], overrides: Partial<JobsHandlerDeps> = {}) {
  const probes: (readonly string[])[] = [];
  const started: unknown[] = [];
  const group = jobsHandlers({
    engine: {
      start: (requests) => {
        started.push(...requests);
        return [];
      },
      wait: () => Promise.reject(new Error('not used')),
      cancel: () => false,
    },
    client: () => {
      throw new Error('not used');
    },
    attached: async (extraLinks) => {
      probes.push(extraLinks);
      return attached;
    },
    ...overrides,
  });
  const resolve = (input: unknown) => group['jobs.resolveTargets'](parseChannelInput('jobs.resolveTargets', input));
  return { group, probes, started, resolve };
}

const bench: AttachedForTargets[] = [
  { link: 'serial:/dev/pts/1', serialNumber: 'EPC000101', error: null },
  { link: 'serial:/dev/pts/2', serialNumber: 'EPC000102', error: null },
  { link: 'serial:/dev/pts/3', serialNumber: 'EPC000102', error: null },
  { link: 'udp:127.0.0.1:5683', serialNumber: null, error: 'no answer to the info request' },
];

describe('jobs.resolveTargets', () => {
  it('uses links alone as given, without looking for devices', async () => {
    const { resolve, probes } = handlers(bench);
    expect(await resolve({ links: ['serial:/dev/pts/9'] })).toEqual({
      targets: [{ kind: 'link', spec: 'serial:/dev/pts/9' }],
      problems: [],
    });
    expect(await resolve({ serialNumbers: ['EPC000101'], links: ['serial:/dev/pts/9'] })).toEqual({
      targets: [{ kind: 'link', spec: 'serial:/dev/pts/9', serialNumber: 'EPC000101' }],
      problems: [],
    });
    expect(probes).toEqual([]);
  });

  it('finds serial numbers once, refuses a serial number two devices claim, and says why the others are not targets', async () => {
    const { resolve, probes } = handlers(bench);
    const resolved = await resolve({
      serialNumbers: ['EPC000101', 'EPC000999', 'EPC000102'],
      links: ['udp:127.0.0.1:5683'],
    });
    expect(probes).toEqual([['udp:127.0.0.1:5683']]);
    expect(resolved.targets).toEqual([{ kind: 'link', spec: 'serial:/dev/pts/1', serialNumber: 'EPC000101' }]);
    expect(resolved.problems.map((p) => p.kind)).toEqual(['notAnswering', 'sharedSerial', 'noAnswer']);
    expect(resolved.problems[0]).toEqual({
      kind: 'notAnswering',
      serialNumber: 'EPC000999',
      attached: ['EPC000101', 'EPC000102', 'EPC000102'],
    });
    expect(resolved.problems[1]).toMatchObject({ kind: 'sharedSerial', serialNumber: 'EPC000102' });
    expect(resolved.problems[2]).toEqual({
      kind: 'noAnswer',
      link: 'udp:127.0.0.1:5683',
      error: 'no answer to the info request',
    });
  });

  it('takes every attached device with all, the shared serial number said once', async () => {
    const { resolve } = handlers(bench);
    const resolved = await resolve({ all: true });
    expect(resolved.targets).toEqual([{ kind: 'link', spec: 'serial:/dev/pts/1', serialNumber: 'EPC000101' }]);
    expect(resolved.problems).toEqual([expect.objectContaining({ kind: 'sharedSerial', serialNumber: 'EPC000102' })]);
  });
});

describe('jobs.readiness', () => {
  it("answers each serial number in order, from the service's record, or not known when it cannot be asked", async () => {
    const records: Record<string, { serialNumber: string; configurationId: string | null }> = {
      EPC000101: { serialNumber: 'EPC000101', configurationId: 'cfg-1' },
      EPC000102: { serialNumber: 'EPC000102', configurationId: null },
    };
    const client = {
      devices: {
        list: async ({ serial }: { serial: string }) => {
          if (serial === 'EPC000666') throw new Error('service unreachable');
          return { items: records[serial] ? [records[serial]] : [] };
        },
      },
    } as unknown as Awaited<ReturnType<JobsHandlerDeps['client']>>;
    const { group } = handlers([], { client: () => client });
    const answers = await group['jobs.readiness'](
      parseChannelInput('jobs.readiness', { serialNumbers: ['EPC000101', 'EPC000102', 'EPC000103', 'EPC000666'] }),
    );
    expect(answers.map((a) => [a.serialNumber, a.ready])).toEqual([
      ['EPC000101', true],
      ['EPC000102', false],
      ['EPC000103', false],
      ['EPC000666', null],
    ]);
    expect(answers[1]).toMatchObject({ code: 'DEVICE_NOT_IN_CONFIGURATION' });
    expect(answers[2]).toMatchObject({ code: 'DEVICE_NOT_REGISTERED' });
  });
});

describe('jobs.start', () => {
  it('starts what the host admits and nothing it refuses', async () => {
    const refusal = new CoreError('DEVICE_ERROR', 'not a device the Workbench lists');
    const { group, started } = handlers([], {
      admit: (targets) => {
        if (targets.some((t) => t.kind !== 'link' || t.spec !== 'serial:/dev/pts/1')) throw refusal;
      },
    });
    const request = (spec: string) =>
      parseChannelInput('jobs.start', { requests: [{ action: 'firmware', target: { kind: 'link', spec } }] });
    await group['jobs.start'](request('serial:/dev/pts/1'));
    await expect(group['jobs.start'](request('udp:192.0.2.1:5683'))).rejects.toBe(refusal);
    expect(started).toEqual([{ action: 'firmware', target: { kind: 'link', spec: 'serial:/dev/pts/1' } }]);
  });

  it('validates its input: a target, an action, and the bytes of a file', () => {
    const bad = (input: unknown) => {
      try {
        parseChannelInput('jobs.start', input);
      } catch (err) {
        return err instanceof CoreError ? err.code : String(err);
      }
      return 'accepted';
    };
    expect(bad({ requests: [] })).toBe('INVALID_INPUT');
    expect(bad({ requests: [{ action: 'erase', target: { kind: 'link', spec: 'serial:/dev/pts/1' } }] })).toBe(
      'INVALID_INPUT',
    );
    expect(bad({ requests: [{ action: 'firmware', target: { kind: 'link', spec: ' ' } }] })).toBe('INVALID_INPUT');
    const file = (bytes: unknown) => ({
      requests: [
        {
          action: 'firmware',
          target: { kind: 'serialNumber', serialNumber: 'EPC000101' },
          firmware: { kind: 'file', bytes, name: 'a.zip' },
        },
      ],
    });
    expect(bad(file('UEsDBA=='))).toBe('INVALID_INPUT');
    expect(bad(file(Buffer.from('PK')))).toBe('accepted');
    expect(bad(file(new Uint8Array([1, 2])))).toBe('accepted');
  });
});
