import { beforeAll, describe, expect, it } from 'vitest';
import { issueKey, upsertManufacturingRecords } from '../../server';
import { openApiPath } from '../../server/http/register';
import { ALL_OPERATIONS } from '../../server/routes';
import { backends, codes, register, type TestEnv } from './harness';
import { serviceForTests } from './helpers/service-env';

/**
 * What a client with a valid key can send is bounded: every stored text has a length limit, apply
 * times fall in a window, a NUL character anywhere is a 400 (PostgreSQL refuses it in text: it
 * must never reach a query and turn into a 500), search filters take LIKE wildcards literally, and
 * download file names are safe to save as they are. All tried over HTTP, as a client would.
 */
describe.each(backends())('bounded input on %s', (backend) => {
  const env = serviceForTests(backend);
  const DAY_MS = 24 * 60 * 60 * 1000;

  beforeAll(async () => {
    await register(env, ['EPC000101', 'SRCP000101']);
  });

  const refused = (response: Awaited<ReturnType<TestEnv['call']>>, code: string, field?: string) => {
    expect(response.status, JSON.stringify(response.json?.errors)?.slice(0, 300)).toBe(400);
    const entry = response.json.errors!.find((e) => e.code === code && (field === undefined || e.field === field));
    expect(entry, JSON.stringify(response.json.errors).slice(0, 300)).toBeDefined();
  };

  describe('text lengths', () => {
    it('refuses a confirmation with a 2-million-character error message, without echoing it or recording anything', async () => {
      const before = (await env.call('GET', '/devices?serial=EPC000101')).json.data.items[0];
      const response = await env.call('POST', '/devices/EPC000101/confirm-apply-firmware', {
        body: {
          firmwareFileSuccessfullyDeployed: false,
          error: 'E'.repeat(2_000_000),
          applyTimeStamp: new Date().toISOString(),
        },
      });
      refused(response, 'TEXT_TOO_LONG', 'error');
      expect(response.bytes.length).toBeLessThan(2_000);
      expect((await env.call('GET', '/devices?serial=EPC000101')).json.data.items[0]).toEqual(before);
    });

    it('refuses every stored text one character over its limit', async () => {
      const over = (n: number) => 'x'.repeat(n + 1);
      const { data: config } = (await env.call('POST', '/configurations', { body: { name: 'bounded' } })).json;
      refused(await env.call('POST', '/configurations', { body: { name: over(100) } }), 'TEXT_TOO_LONG', 'name');
      refused(
        await env.call('PATCH', `/configurations/${config.id}`, { body: { name: over(100) } }),
        'TEXT_TOO_LONG',
        'name',
      );
      refused(await env.call('POST', `/devices?serialNumber=SRCP000102&name=${over(100)}`), 'TEXT_TOO_LONG', 'name');
      refused(await env.call('POST', `/devices?serialNumber=${over(64)}&name=x`), 'TEXT_TOO_LONG', 'serialNumber');
      refused(await env.call('PATCH', `/devices/EPC000101?name=${over(100)}`), 'TEXT_TOO_LONG', 'name');
      refused(
        await env.call('POST', `/configurations/${config.id}/devices`, {
          body: { serialNumber: 'EPC000101', commInterface: 'Wifi', wifiSsid: over(64), wifiPassword: over(128) },
        }),
        'TEXT_TOO_LONG',
        'wifiPassword',
      );
      refused(
        await env.call('POST', '/ipNetworkTemplates', {
          body: { ipNetworkTemplateName: over(100), commInterface: 'Wifi', netmask: '255.255.255.0' },
        }),
        'TEXT_TOO_LONG',
        'ipNetworkTemplateName',
      );
      refused(
        await env.call('POST', '/ipNetworkTemplates', {
          body: { ipNetworkTemplateName: 'w', commInterface: 'Wifi', netmask: over(64) },
        }),
        'TEXT_TOO_LONG',
        'netmask',
      );
      refused(
        await env.call('POST', '/users', { body: { email: `${over(254)}@example.com`, userRole: 'Operator' } }),
        'TEXT_TOO_LONG',
        'email',
      );
      refused(
        await env.call('POST', '/devices/EPC000101/confirm-apply-firmware', {
          body: {
            firmwareFileSuccessfullyDeployed: true,
            firmwareVersion: over(64),
            applyTimeStamp: new Date().toISOString(),
          },
        }),
        'TEXT_TOO_LONG',
        'firmwareVersion',
      );
      refused(await env.call('GET', `/devices?search=${over(100)}`), 'TEXT_TOO_LONG', 'search');
    });
  });

  describe('apply times', () => {
    let syncId: string;
    beforeAll(async () => {
      syncId = (await env.call('GET', '/devices/SRCP000101/configuration-file/blank')).headers.get(
        'x-config-file-sync-id',
      )!;
    });
    const firmware = (applyTimeStamp: string) =>
      env.call('POST', '/devices/SRCP000101/confirm-apply-firmware', {
        body: { firmwareFileSuccessfullyDeployed: true, firmwareVersion: '9.9.9', applyTimeStamp },
      });
    const configuration = (applyTimeStamp: string) =>
      env.call('POST', '/devices/SRCP000101/confirm-apply-configuration', {
        body: { configurationFileSuccessfullyDeployed: true, syncId, applyTimeStamp },
      });

    it('refuses a confirmation dated more than a day ahead, which no later one could ever replace', async () => {
      const ahead = new Date(Date.now() + 2 * DAY_MS).toISOString();
      refused(await firmware(ahead), 'APPLY_TIME_OUT_OF_RANGE', 'applyTimeStamp');
      refused(await configuration(ahead), 'APPLY_TIME_OUT_OF_RANGE', 'applyTimeStamp');
      refused(await firmware('9999-12-31T23:59:59Z'), 'APPLY_TIME_OUT_OF_RANGE', 'applyTimeStamp');
      expect((await env.call('GET', '/devices?serial=SRCP000101')).json.data.items[0].firmwareVersion).toBeNull();
    });

    it('refuses an absurdly old one (a clock reset to 1970)', async () => {
      refused(await firmware('1970-01-01T00:00:00Z'), 'APPLY_TIME_OUT_OF_RANGE', 'applyTimeStamp');
      refused(await configuration('0001-01-01T00:00:00Z'), 'APPLY_TIME_OUT_OF_RANGE', 'applyTimeStamp');
    });

    it('takes a late one (an outbox replay) and one a little ahead (clocks differ)', async () => {
      expect((await configuration('2021-03-04T05:06:07Z')).json.data).toBe(true);
      expect((await firmware(new Date(Date.now() + 60 * 60 * 1000).toISOString())).json.data).toBe(true);
    });
  });

  describe('NUL characters', () => {
    it('are a 400 NUL_CHARACTER in a path parameter, a query parameter or a body (string or key) of every operation, never a 500', async () => {
      const answers: string[] = [];
      for (const operation of ALL_OPERATIONS) {
        const isPublic = operation.id.startsWith('public.');
        const path = openApiPath(operation.path)
          .replace('{orgId}', env.orgId)
          .replace(/\{[A-Za-z]+\}/g, 'a%00b');
        const withNulInPath = path.includes('a%00b');
        const requests = [
          ...(withNulInPath ? [{ url: path, body: undefined }] : []),
          { url: `${path.replace(/a%00b/g, 'EPC000101')}?x=%00`, body: undefined },
          ...(operation.body
            ? [{ url: path.replace(/a%00b/g, 'EPC000101'), body: { 'key\u0000': 'value', name: 'a\u0000b' } }]
            : []),
        ];
        for (const request of requests) {
          const response = await env.call(operation.method, request.url, {
            ...(isPublic ? { key: null } : {}),
            ...(request.body ? { body: request.body } : {}),
          });
          answers.push(
            `${operation.id} ${request.url} ${request.body ? 'body' : ''} → ${response.status} ${codes(response).join(',')}`,
          );
        }
      }
      expect(answers.filter((a) => !/→ 400 NUL_CHARACTER$/.test(a))).toEqual([]);
    });

    it('name the field that holds one', async () => {
      refused(await env.call('POST', '/configurations', { body: { name: 'Line\u00003' } }), 'NUL_CHARACTER', 'name');
      refused(await env.call('GET', '/devices?search=EPC%00'), 'NUL_CHARACTER', 'search');
      refused(await env.call('PATCH', '/devices/EPC000101%00'), 'NUL_CHARACTER', 'path.serialNumber');
      refused(
        await env.call('POST', '/devices/EPC000101/confirm-apply-firmware', {
          body: {
            firmwareFileSuccessfullyDeployed: false,
            error: 'CRC\u0000',
            applyTimeStamp: new Date().toISOString(),
          },
        }),
        'NUL_CHARACTER',
        'error',
      );
    });

    it('in the organization of the path is simply another organization (403)', async () => {
      const response = await env.call('GET', '/configurations', { orgId: 'demo%00' });
      expect(response.status).toBe(403);
      expect(codes(response)).toEqual(['ORGANIZATION_FORBIDDEN']);
    });
  });

  describe('LIKE wildcards', () => {
    it('match themselves in every search and name filter', async () => {
      await upsertManufacturingRecords(env.db, [
        { serialNumber: 'WILD%01', deviceType: 'EPC', model: 'EPC-300' },
        { serialNumber: 'WILD_02', deviceType: 'EPC', model: 'EPC-300' },
        { serialNumber: 'WILD\\03', deviceType: 'EPC', model: 'EPC-300' },
      ]);
      for (const [serial, name] of [
        ['WILD%01', '50% line'],
        ['WILD_02', 'line_b'],
        ['WILD\\03', 'back\\slash'],
      ] as const) {
        expect(
          (
            await env.call(
              'POST',
              `/devices?serialNumber=${encodeURIComponent(serial)}&name=${encodeURIComponent(name)}`,
            )
          ).status,
        ).toBe(201);
        expect((await env.call('POST', '/configurations', { body: { name } })).status).toBe(201);
        expect(
          (
            await env.call('POST', '/ipNetworkTemplates', {
              body: { ipNetworkTemplateName: name, commInterface: 'Ethernet', netmask: '255.0.0.0' },
            })
          ).status,
        ).toBe(201);
      }
      await issueKey(env.db, { orgId: env.orgId, name: 'line_key', role: 'Operator' });
      const q = encodeURIComponent;
      for (const [pattern, expected] of [
        ['%', ['50% line']],
        ['_', ['line_b']],
        ['\\', ['back\\slash']],
      ] as const) {
        expect(
          (await env.call('GET', `/devices?search=${q(pattern)}`)).json.data.items.map((d: { name: string }) => d.name),
        ).toEqual(expected);
        expect(
          (await env.call('GET', `/configurations?Search=${q(pattern)}`)).json.data.items.map(
            (c: { name: string }) => c.name,
          ),
        ).toEqual(expected);
        expect(
          (await env.call('GET', `/ipNetworkTemplates?nameFilter=${q(pattern)}`)).json.data.map(
            (t: { ipNetworkTemplateName: string }) => t.ipNetworkTemplateName,
          ),
        ).toEqual(expected);
      }
      expect((await env.call('GET', '/apiKeys?Name=_')).json.data.map((k: { name: string }) => k.name)).toEqual([
        'line_key',
      ]);
      expect((await env.call('GET', '/apiKeys?Name=%25')).json.data).toEqual([]);
      await env.call('POST', '/users', { body: { email: 'a_b@example.com', userRole: 'Operator' } });
      await env.call('POST', '/users', { body: { email: 'axb@example.com', userRole: 'Operator' } });
      expect(
        (await env.call('GET', '/users?Search=a_b')).json.data.items.map((u: { email: string }) => u.email),
      ).toEqual(['a_b@example.com']);
      expect((await env.call('GET', '/users?Search=%25')).json.data.totalCount).toBe(0);
    });
  });

  describe('download file names', () => {
    it('are safe to save as they are: no path separator, quote, control character or leading dot', async () => {
      const serial = '..\\x"\u0007y';
      await upsertManufacturingRecords(env.db, [{ serialNumber: serial, deviceType: 'EPC', model: 'EPC-300' }]);
      expect((await env.call('POST', `/devices?serialNumber=${encodeURIComponent(serial)}&name=odd`)).status).toBe(201);
      const response = await env.call('GET', `/devices/${encodeURIComponent(serial)}/configuration-file/blank`);
      expect(response.status).toBe(200);
      const disposition = response.headers.get('content-disposition')!;
      const name = /^attachment; filename="([^"]*)"$/.exec(disposition)?.[1];
      expect(name, disposition).toBe('___x__y-blank.cbor');
    });
  });
});
