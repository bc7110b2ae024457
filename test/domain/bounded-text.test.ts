import { describe, expect, it } from 'vitest';
import {
  configurationCreateSchema,
  deviceAddSchema,
  deviceRegisterQuerySchema,
  deviceListQuerySchema,
  firmwareConfirmationSchema,
  ipNetworkTemplateCreateSchema,
  parsePayload,
  userRegisterSchema,
} from '../../domain';
import { checkApplyTime } from '../../domain/apply-time';
import { TEXT_LIMITS } from '../../domain/text-limits';
import { expectAccepted, expectRejected } from './expectations';

/** The service's text limits and apply time window; the attacker's side is test/server/bounded-input.test.ts. */
describe('text limits', () => {
  it('refuse each stored text one character over its limit, without quoting it', () => {
    const over = (limit: number) => 'x'.repeat(limit + 1);
    const cases = [
      [configurationCreateSchema, { name: over(TEXT_LIMITS.name) }, 'name'],
      [deviceRegisterQuerySchema, { name: over(TEXT_LIMITS.name), serialNumber: 'EPC000101' }, 'name'],
      [deviceRegisterQuerySchema, { name: 'Press', serialNumber: over(TEXT_LIMITS.serialNumber) }, 'serialNumber'],
      [
        deviceAddSchema,
        { serialNumber: 'EPC000101', commInterface: 'Wifi', wifiSsid: over(TEXT_LIMITS.wifiSsid) },
        'wifiSsid',
      ],
      [
        deviceAddSchema,
        { serialNumber: 'EPC000101', commInterface: 'Wifi', wifiPassword: over(TEXT_LIMITS.wifiPassword) },
        'wifiPassword',
      ],
      [deviceAddSchema, { serialNumber: 'EPC000101', ipAddress: over(TEXT_LIMITS.address) }, 'ipAddress'],
      [
        ipNetworkTemplateCreateSchema,
        { ipNetworkTemplateName: over(TEXT_LIMITS.name), commInterface: 'Wifi', netmask: '255.0.0.0' },
        'ipNetworkTemplateName',
      ],
      [
        ipNetworkTemplateCreateSchema,
        {
          ipNetworkTemplateName: 'W',
          commInterface: 'Wifi',
          netmask: '255.0.0.0',
          password: over(TEXT_LIMITS.wifiPassword),
        },
        'password',
      ],
      [
        firmwareConfirmationSchema,
        {
          firmwareFileSuccessfullyDeployed: false,
          error: over(TEXT_LIMITS.applyError),
          applyTimeStamp: '2025-01-01T00:00:00Z',
        },
        'error',
      ],
      [
        firmwareConfirmationSchema,
        {
          firmwareFileSuccessfullyDeployed: true,
          firmwareVersion: over(TEXT_LIMITS.firmwareVersion),
          applyTimeStamp: '2025-01-01T00:00:00Z',
        },
        'firmwareVersion',
      ],
      [userRegisterSchema, { email: `${over(TEXT_LIMITS.email)}@example.com`, userRole: 'Operator' }, 'email'],
      [deviceListQuerySchema, { search: over(TEXT_LIMITS.search) }, 'search'],
    ] as const;
    for (const [schema, payload, field] of cases) {
      const result = parsePayload(schema, payload);
      const found = expectRejected(result, 'TEXT_TOO_LONG', field);
      expect(found.message).not.toContain('xxxxxxxxxx');
      expect(result.ok ? [] : result.violations.filter((v) => v.field === field)).toHaveLength(1);
    }
  });

  it('accept each at its limit', () => {
    expectAccepted(parsePayload(configurationCreateSchema, { name: 'n'.repeat(TEXT_LIMITS.name) }));
    expectAccepted(
      parsePayload(firmwareConfirmationSchema, {
        firmwareFileSuccessfullyDeployed: false,
        error: 'e'.repeat(TEXT_LIMITS.applyError),
        applyTimeStamp: '2025-01-01T00:00:00Z',
      }),
    );
  });
});

describe('the apply time window', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  it('takes any time from 2020 to a day ahead of the service clock', () => {
    expect(checkApplyTime('2020-01-01T00:00:00Z', now)).toEqual([]);
    expect(checkApplyTime('2026-06-02T11:59:59Z', now)).toEqual([]);
  });
  it('refuses a clock reset to 1970 and a time more than a day ahead', () => {
    expect(checkApplyTime('1970-01-01T00:00:00Z', now).map((v) => v.code)).toEqual(['APPLY_TIME_OUT_OF_RANGE']);
    expect(checkApplyTime('2026-06-02T12:00:01Z', now).map((v) => [v.code, v.field])).toEqual([
      ['APPLY_TIME_OUT_OF_RANGE', 'applyTimeStamp'],
    ]);
  });
});
