import { describe, expect, it } from 'vitest';
import {
  apiKeyListQuerySchema,
  configurationListQuerySchema,
  deviceListQuerySchema,
  dryRunQuerySchema,
  parsePayload,
  templateListQuerySchema,
  userListQuerySchema,
} from '../../domain';
import { expectAccepted, expectRejected } from './expectations';

describe('list queries', () => {
  describe('configurations: Search, SortOptions, Limit, Page', () => {
    it('reads the query strings and applies defaults', () => {
      expect(expectAccepted(parsePayload(configurationListQuerySchema, {}))).toEqual({
        SortOptions: 'LastEditedDESC',
        Limit: 20,
        Page: 1,
      });
      expect(
        expectAccepted(
          parsePayload(configurationListQuerySchema, {
            Search: ' line ',
            SortOptions: 'ConfigNameASC',
            Limit: '30',
            Page: '2',
          }),
        ),
      ).toEqual({ Search: 'line', SortOptions: 'ConfigNameASC', Limit: 30, Page: 2 });
    });
    it('refuses the lower-case spellings of other lists', () => {
      const v = expectRejected(parsePayload(configurationListQuerySchema, { limit: '5' }), 'UNKNOWN_FIELD', 'limit');
      expect(v.message).toBe('limit is not a field of this request: it is spelled Limit here.');
      const devices = expectRejected(parsePayload(deviceListQuerySchema, { Limit: '5' }), 'UNKNOWN_FIELD', 'Limit');
      expect(devices.message).toContain('spelled limit');
    });
    it('refuses a sort option that does not exist', () => {
      expectRejected(
        parsePayload(configurationListQuerySchema, { SortOptions: 'NameASC' }),
        'INVALID_ENUM_VALUE',
        'SortOptions',
      );
    });
  });

  describe('limit at most 30, pages from 1', () => {
    it.each([
      [configurationListQuerySchema, 'Limit', 'Page'],
      [deviceListQuerySchema, 'limit', 'page'],
      [templateListQuerySchema, 'limit', 'page'],
      [userListQuerySchema, 'limit', 'page'],
    ] as const)('%#: 30 passes, 31 and 0 break, page 0 breaks', (schema, limit, page) => {
      expect(parsePayload(schema, { [limit]: '30', [page]: '1' }).ok).toBe(true);
      expect(parsePayload(schema, { [limit]: '1' }).ok).toBe(true);
      expectRejected(parsePayload(schema, { [limit]: '31' }), 'LIMIT_TOO_LARGE', limit);
      expectRejected(parsePayload(schema, { [limit]: '0' }), 'LIMIT_TOO_SMALL', limit);
      expectRejected(parsePayload(schema, { [page]: '0' }), 'PAGE_OUT_OF_RANGE', page);
    });
    it('API keys: Limit at most 30, Offset from 0', () => {
      expect(parsePayload(apiKeyListQuerySchema, { Limit: '30', Offset: '0' }).ok).toBe(true);
      expectRejected(parsePayload(apiKeyListQuerySchema, { Limit: '100' }), 'LIMIT_TOO_LARGE', 'Limit');
      expectRejected(parsePayload(apiKeyListQuerySchema, { Offset: -1 }), 'OFFSET_OUT_OF_RANGE', 'Offset');
    });
    it.each(['1.0', '1e1', ' 5', '+5', '-1', 'five', ''])('integers are plain digits: %j breaks', (text) => {
      expectRejected(parsePayload(deviceListQuerySchema, { limit: text }), 'INVALID_INTEGER', 'limit');
    });
    it('a repeated parameter (a list) breaks', () => {
      expectRejected(parsePayload(deviceListQuerySchema, { page: ['1', '2'] }), 'INVALID_INTEGER', 'page');
    });
  });

  describe('devices: limit, page, search, serial, configurableOnly', () => {
    it('reads configurableOnly and defaults it to false', () => {
      expect(expectAccepted(parsePayload(deviceListQuerySchema, { configurableOnly: 'true' })).configurableOnly).toBe(
        true,
      );
      expect(expectAccepted(parsePayload(deviceListQuerySchema, { configurableOnly: 'false' })).configurableOnly).toBe(
        false,
      );
      expect(expectAccepted(parsePayload(deviceListQuerySchema, {})).configurableOnly).toBe(false);
    });
    it.each(['TRUE', '1', 'yes', ''])('booleans are exactly true or false: %j breaks', (text) => {
      expectRejected(
        parsePayload(deviceListQuerySchema, { configurableOnly: text }),
        'INVALID_BOOLEAN',
        'configurableOnly',
      );
    });
    it('search and serial cannot be combined', () => {
      expectRejected(
        parsePayload(deviceListQuerySchema, { search: 'press', serial: 'EPC000101' }),
        'SEARCH_WITH_SERIAL',
        'serial',
      );
      expect(parsePayload(deviceListQuerySchema, { serial: 'EPC000101' }).ok).toBe(true);
      expect(parsePayload(deviceListQuerySchema, { search: 'press', serial: '' }).ok).toBe(true);
    });
  });

  describe('templates: nameFilter, typeFilter, sortBy, sortDirection, limit, page', () => {
    it('defaults to Name Ascending', () => {
      expect(expectAccepted(parsePayload(templateListQuerySchema, {}))).toEqual({
        sortBy: 'Name',
        sortDirection: 'Ascending',
        limit: 20,
        page: 1,
      });
    });
    it('takes every parameter', () => {
      expect(
        expectAccepted(
          parsePayload(templateListQuerySchema, {
            nameFilter: 'lan',
            typeFilter: 'Wifi',
            sortBy: 'LastEdited',
            sortDirection: 'Descending',
          }),
        ),
      ).toMatchObject({ nameFilter: 'lan', typeFilter: 'Wifi', sortBy: 'LastEdited', sortDirection: 'Descending' });
    });
    it('refuses an unknown type filter', () => {
      expectRejected(parsePayload(templateListQuerySchema, { typeFilter: 'BLE' }), 'INVALID_ENUM_VALUE', 'typeFilter');
    });
  });

  describe('users: IsActive, Search, SortOptions, limit, page', () => {
    it('IsActive unset lists everyone; true and false filter', () => {
      expect(expectAccepted(parsePayload(userListQuerySchema, {})).IsActive).toBeUndefined();
      expect(expectAccepted(parsePayload(userListQuerySchema, { IsActive: 'false' })).IsActive).toBe(false);
      expectRejected(parsePayload(userListQuerySchema, { IsActive: 'no' }), 'INVALID_BOOLEAN', 'IsActive');
    });
    it('takes the user sort options only', () => {
      expect(expectAccepted(parsePayload(userListQuerySchema, { SortOptions: 'LastActivityDESC' })).SortOptions).toBe(
        'LastActivityDESC',
      );
      expectRejected(
        parsePayload(userListQuerySchema, { SortOptions: 'LastEditedASC' }),
        'INVALID_ENUM_VALUE',
        'SortOptions',
      );
    });
  });

  describe('API keys: Limit, Offset, IncludeApiKeys, KeyFormat', () => {
    it('defaults to no key data, masked when asked for', () => {
      expect(expectAccepted(parsePayload(apiKeyListQuerySchema, {}))).toEqual({
        Limit: 20,
        Offset: 0,
        IncludeApiKeys: false,
        KeyFormat: 'Masked',
      });
      expect(
        expectAccepted(parsePayload(apiKeyListQuerySchema, { IncludeApiKeys: 'true', KeyFormat: 'Visible' })),
      ).toMatchObject({
        IncludeApiKeys: true,
        KeyFormat: 'Visible',
      });
    });
    it('refuses an unknown key format', () => {
      expectRejected(parsePayload(apiKeyListQuerySchema, { KeyFormat: 'Hidden' }), 'INVALID_ENUM_VALUE', 'KeyFormat');
    });
  });

  describe('dryRun', () => {
    it('defaults to false and reads true', () => {
      expect(expectAccepted(parsePayload(dryRunQuerySchema, {})).dryRun).toBe(false);
      expect(expectAccepted(parsePayload(dryRunQuerySchema, { dryRun: 'true' })).dryRun).toBe(true);
      expectRejected(parsePayload(dryRunQuerySchema, { dryRun: '1' }), 'INVALID_BOOLEAN', 'dryRun');
    });
  });
});
