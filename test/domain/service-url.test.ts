import { describe, expect, it } from 'vitest';
import { canonicalServiceUrl, serviceKey, ServiceUrlError } from '../../domain/service-url';

describe('one spelling per service', () => {
  it('writes the spellings of one service the same way', () => {
    const spellings = [
      'https://dcms.example.com',
      'https://dcms.example.com/',
      '  https://DCMS.Example.com//  ',
      'HTTPS://dcms.example.com:443/',
    ];
    expect(new Set(spellings.map(canonicalServiceUrl))).toEqual(new Set(['https://dcms.example.com']));
    expect(canonicalServiceUrl('http://127.0.0.1:80/')).toBe('http://127.0.0.1');
    expect(canonicalServiceUrl('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
    expect(canonicalServiceUrl('https://host.example/dcms/')).toBe('https://host.example/dcms');
  });

  it('keeps apart what are different services', () => {
    expect(canonicalServiceUrl('http://host.example')).not.toBe(canonicalServiceUrl('https://host.example'));
    expect(canonicalServiceUrl('https://host.example:8443')).not.toBe(canonicalServiceUrl('https://host.example'));
    expect(canonicalServiceUrl('https://host.example/a')).not.toBe(canonicalServiceUrl('https://host.example/b'));
  });

  it('refuses what is not a service base URL, saying what to write', () => {
    expect(() => canonicalServiceUrl('dcms.example.com')).toThrow(ServiceUrlError);
    expect(() => canonicalServiceUrl('dcms.example.com')).toThrow(/with its scheme/);
    expect(() => canonicalServiceUrl('ftp://dcms.example.com')).toThrow(/http:\/\/ or https:\/\//);
    expect(() => canonicalServiceUrl('https://user:secret@dcms.example.com')).toThrow(/user name or password/);
    expect(() => canonicalServiceUrl('https://dcms.example.com/?org=1')).toThrow(/without \?query/);
  });

  it('keys a record that names no URL (an old entry, the local workspace) by its text', () => {
    expect(serviceKey('local-workspace')).toBe('local-workspace');
    expect(serviceKey('https://DCMS.example.com/')).toBe('https://dcms.example.com');
  });
});
