import { describe, expect, it } from 'vitest';
import { deviceRecordSchema, pageSchema } from '../../domain';
import { backends, codes } from './harness';
import { serviceForTests } from './helpers/service-env';

describe.each(backends())('registered devices on %s', (backend) => {
  const env = serviceForTests(backend);

  it('claims a manufactured serial number with a name and an optional image in either body form', async () => {
    const plain = await env.call('POST', '/devices?serialNumber=EPC000101&name=Loader%207');
    expect(plain.status).toBe(201);
    expect(deviceRecordSchema.parse(plain.json.data)).toMatchObject({
      serialNumber: 'EPC000101',
      name: 'Loader 7',
      deviceType: 'EPC',
      model: 'EPC-300 endpoint controller',
      hasImage: false,
      deviceImage: null,
      deployStatus: 'NotDeployed',
      firmwareVersion: null,
    });
    const bare = await env.call('POST', '/devices?serialNumber=EPC000102&name=Loader%208', {
      body: 'data:image/png;base64,iVBORw0KGgo=',
    });
    expect(bare.json.data).toMatchObject({ hasImage: true, deviceImage: 'data:image/png;base64,iVBORw0KGgo=' });
    const object = await env.call('POST', '/devices?serialNumber=EPC000103&name=Loader%209', {
      body: { deviceImage: 'iVBORw0KGgo=' },
    });
    expect(object.json.data).toMatchObject({ hasImage: true, deviceImage: 'iVBORw0KGgo=' });
  });

  it('refuses unknown, already registered and badly named devices clearly', async () => {
    const unknown = await env.call('POST', '/devices?serialNumber=XYZ999&name=x');
    expect(unknown.status).toBe(404);
    expect(unknown.json.errors).toEqual([
      expect.objectContaining({ code: 'SERIAL_NUMBER_UNKNOWN', field: 'serialNumber' }),
    ]);
    const again = await env.call('POST', '/devices?serialNumber=EPC000101&name=again');
    expect(again.status).toBe(409);
    expect(codes(again)).toEqual(['DEVICE_ALREADY_REGISTERED']);
    expect(codes(await env.call('POST', '/devices?serialNumber=EPC000104'))).toEqual(['REQUIRED']);
    expect(codes(await env.call('POST', '/devices?name=x'))).toEqual(['REQUIRED']);
    const tooLarge = await env.call('POST', '/devices?serialNumber=EPC000104&name=x', { body: 'A'.repeat(2_000_001) });
    expect(tooLarge.status).toBe(400);
    expect(codes(tooLarge)).toEqual(['DEVICE_IMAGE_TOO_LARGE']);
    const overBodyLimit = await env.call('POST', '/devices?serialNumber=EPC000104&name=x', {
      body: 'A'.repeat(3_000_000),
    });
    expect(overBodyLimit.status).toBe(400);
    expect(codes(overBodyLimit)).toEqual(['BODY_TOO_LARGE']);
    // Nothing was registered by the refused requests.
    expect((await env.call('GET', '/devices?serial=EPC000104')).json.data.totalCount).toBe(0);
  });

  it('renames, replaces and deletes the image', async () => {
    const renamed = await env.call('PATCH', '/devices/EPC000102?name=%20Press%20line%20', {
      body: 'data:image/jpeg;base64,/9j/4AAQ',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json.data).toMatchObject({ name: 'Press line', deviceImage: 'data:image/jpeg;base64,/9j/4AAQ' });
    const kept = await env.call('PATCH', '/devices/EPC000102?name=Press');
    expect(kept.json.data).toMatchObject({ name: 'Press', deviceImage: 'data:image/jpeg;base64,/9j/4AAQ' });
    const deleted = await env.call('PATCH', '/devices/EPC000102?deleteImage=true');
    expect(deleted.json.data).toMatchObject({ name: 'Press', hasImage: false, deviceImage: null });
    expect(
      codes(await env.call('PATCH', '/devices/EPC000102?deleteImage=true', { body: { deviceImage: 'AAAA' } })),
    ).toEqual(['DELETE_IMAGE_WITH_IMAGE']);
    expect(codes(await env.call('PATCH', '/devices/EPC000104?name=x'))).toEqual(['DEVICE_NOT_FOUND']);
  });

  it('lists with search, serial, configurableOnly and pages', async () => {
    for (const serial of ['SRCP000101', 'SRCP000102', 'NSCP000101'])
      await env.call('POST', `/devices?serialNumber=${serial}&name=Unit%20${serial}`);
    const all = await env.call('GET', '/devices?limit=30');
    pageSchema(deviceRecordSchema).parse(all.json.data);
    expect(all.json.data).toMatchObject({ page: 1, limit: 30, totalCount: 6 });
    expect(all.json.data.items.map((d: { serialNumber: string }) => d.serialNumber)).toEqual([
      'EPC000101',
      'EPC000102',
      'EPC000103',
      'NSCP000101',
      'SRCP000101',
      'SRCP000102',
    ]);
    const search = await env.call('GET', '/devices?search=srcp');
    expect(search.json.data.items.map((d: { serialNumber: string }) => d.serialNumber)).toEqual([
      'SRCP000101',
      'SRCP000102',
    ]);
    expect((await env.call('GET', '/devices?search=loader')).json.data.totalCount).toBe(2);
    expect((await env.call('GET', '/devices?search=network%20safety')).json.data.totalCount).toBe(1);
    expect((await env.call('GET', '/devices?serial=NSCP000101')).json.data.items).toHaveLength(1);
    expect((await env.call('GET', '/devices?serial=NSCP')).json.data.items).toHaveLength(0);
    const pages = [await env.call('GET', '/devices?limit=4&page=1'), await env.call('GET', '/devices?limit=4&page=2')];
    expect(pages.map((p) => p.json.data.items.length)).toEqual([4, 2]);
    expect(pages[1]!.json.data).toMatchObject({ page: 2, limit: 4, totalCount: 6 });
    const configuration = (await env.call('POST', '/configurations', { body: { name: 'c' } })).json.data.id;
    await env.call('POST', `/configurations/${configuration}/devices`, { body: { serialNumber: 'SRCP000101' } });
    const configurable = await env.call('GET', '/devices?configurableOnly=true&limit=30');
    expect(configurable.json.data.items.map((d: { serialNumber: string }) => d.serialNumber)).not.toContain(
      'SRCP000101',
    );
    expect(configurable.json.data.totalCount).toBe(5);
    expect((await env.call('GET', '/devices?serial=SRCP000101')).json.data.items[0]).toMatchObject({
      configurationId: configuration,
      configurationName: 'c',
    });
    const both = await env.call('GET', '/devices?search=a&serial=b');
    expect(both.status).toBe(400);
    expect(codes(both)).toEqual(['SEARCH_WITH_SERIAL']);
    expect(codes(await env.call('GET', '/devices?limit=31'))).toEqual(['LIMIT_TOO_LARGE']);
  });
});
