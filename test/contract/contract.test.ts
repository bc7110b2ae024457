import { describe, expect, it } from 'vitest';
import {
  ACCOUNTABILITY_CHANNELS,
  CONFIGURATION_CHANNELS,
  CONTRACT,
  CoreError,
  EVENT_STREAMS,
  CACHE_CHANNELS,
  DOWNLOAD_CHANNELS,
  FIRMWARE_CHANNELS,
  invokeForWire,
  JOBS_CHANNELS,
  LEDGER_CHANNELS,
  OUTBOX_CHANNELS,
  PACKAGE_CHANNELS,
  PACKAGE_FILE_CHANNELS,
  parseChannelInput,
  READBACK_CHANNELS,
  REGISTRY_CHANNELS,
  SESSION_CHANNELS,
  SIMULATION_CHANNELS,
  STATION_CHANNELS,
  SUPPORT_CHANNELS,
  WORKBENCH_CHANNELS,
  type CoreHost,
} from '../../contract/index';

const echoHost: CoreHost = {
  invoke: async (channel, input) => ({ channel, input }) as never,
  subscribe: () => () => undefined,
};

describe('the contract', () => {
  it('has a kind and an input schema for every channel', () => {
    for (const [name, spec] of Object.entries(CONTRACT)) {
      expect(['command', 'query'], name).toContain(spec.kind);
      expect(typeof spec.input.safeParse, name).toBe('function');
    }
    expect(EVENT_STREAMS).toContain('jobs.progress');
  });

  it("takes every channel group whole: no group hides another one's channel of the same name", () => {
    const groups = [
      SESSION_CHANNELS,
      CONFIGURATION_CHANNELS,
      REGISTRY_CHANNELS,
      FIRMWARE_CHANNELS,
      CACHE_CHANNELS,
      DOWNLOAD_CHANNELS,
      WORKBENCH_CHANNELS,
      JOBS_CHANNELS,
      OUTBOX_CHANNELS,
      LEDGER_CHANNELS,
      READBACK_CHANNELS,
      SUPPORT_CHANNELS,
      STATION_CHANNELS,
      PACKAGE_CHANNELS,
      PACKAGE_FILE_CHANNELS,
      ACCOUNTABILITY_CHANNELS,
      SIMULATION_CHANNELS,
    ];
    const names = groups.flatMap((group) => Object.keys(group));
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(CONTRACT).sort()).toEqual([...names].sort());
  });

  it('fills defaults and refuses unknown fields', () => {
    expect(parseChannelInput('configurations.list', {})).toEqual({ page: 1, limit: 20 });
    expect(() => parseChannelInput('configurations.list', { limit: 31 })).toThrow(CoreError);
    expect(() => parseChannelInput('workbench.jobs', { extra: 1 })).toThrow(/Invalid input/);
  });

  it("takes a device's settings with the domain's fields and types", () => {
    const settings = { can1Id: 7, ossdEnabled: null, wifiPassword: 'secret', ethNameservers: ['10.0.0.53'] };
    expect(
      parseChannelInput('configurations.updateDevice', { id: 'c', serialNumber: 'EPC000101', settings }).settings,
    ).toEqual(settings);
    expect(() =>
      parseChannelInput('configurations.updateDevice', {
        id: 'c',
        serialNumber: 'EPC000101',
        settings: { can1Id: 'seven' },
      }),
    ).toThrow(/settings\.can1Id/);
    expect(() => parseChannelInput('configurations.update', { id: 'c', settings: { ismTxPower: 'Loud' } })).toThrow(
      /settings\.ismTxPower/,
    );
  });

  it('accepts only http(s) service URLs on sign-in', () => {
    const good = { serviceUrl: 'https://dcms.example.com', orgId: 'org', apiKey: 'k' };
    expect(parseChannelInput('session.signIn', good)).toEqual({ ...good, remember: true });
    expect(() => parseChannelInput('session.signIn', { ...good, serviceUrl: 'file:///etc/passwd' })).toThrow(CoreError);
  });

  it('turns every failure into plain data on the wire', async () => {
    await expect(invokeForWire(echoHost, 'no.such', {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_CHANNEL' },
    });
    const bad = await invokeForWire(echoHost, 'devices.register', { serialNumber: '' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    if (!bad.ok)
      expect(bad.error.violations.map((v) => v.field)).toEqual(expect.arrayContaining(['serialNumber', 'name']));
    const thrower: CoreHost = {
      ...echoHost,
      invoke: async () => Promise.reject(new CoreError('NOT_ALLOWED', 'Operators may not', [], 403)),
    };
    await expect(invokeForWire(thrower, 'workbench.jobs', {})).resolves.toEqual({
      ok: false,
      error: { code: 'NOT_ALLOWED', message: 'Operators may not', violations: [], httpStatus: 403 },
    });
    await expect(invokeForWire(echoHost, 'workbench.jobs', undefined)).resolves.toEqual({
      ok: true,
      value: { channel: 'workbench.jobs', input: {} },
    });
  });
});
