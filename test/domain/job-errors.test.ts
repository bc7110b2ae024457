import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, catalogueEntry } from '../../domain/job-errors';
import { errorsDoc } from '../../domain/job-errors-doc';
import { DEVICE_ERROR, DEVICE_ERROR_CODING, DEVICE_ERROR_MORE } from '../../protocol/constants';
import { ERROR_CODES } from '../../contract/index';

/**
 * The error catalogue (docs/errors.md) against the sources: every code the service, the device
 * protocol and the host code can produce has an entry, and no text a technician reads names an
 * HTTP method, a route, an internal type or a stack.
 */

const ROOT = join(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sourceFiles(path));
    else if (path.endsWith('.ts') && !path.endsWith('.tmp.ts')) out.push(path);
  }
  return out;
}

/** Codes where an error is made: a service refusal, an error entry, a job failure, a file format error. */
const CODE_SITE =
  /(?:code:\s*|JobFailure\(\s*|FileFormatError\(\s*|plain\(\s*|conflict\(\s*|notFound\(\s*|badRequest\(\s*|unauthorized\(\s*|forbidden\(\s*|CoreError\(\s*|Error\(\s*)'([A-Z][A-Z0-9]*_[A-Z0-9_]+)'/g;
const SOURCES = [
  'server',
  'main/core',
  'main/engine',
  'main/features',
  'main/cloud',
  'main/devices',
  'domain/files',
].flatMap(sourceFiles);

function codesInSources(): Map<string, string> {
  const found = new Map<string, string>();
  for (const path of SOURCES) {
    for (const match of readFileSync(join(ROOT, path), 'utf8').matchAll(CODE_SITE))
      if (!found.has(match[1]!)) found.set(match[1]!, path);
  }
  return found;
}

/** An HTTP method before a path, a path of the service's routes, a placeholder, an internal type, a stack frame. */
const FORBIDDEN = [
  /\b(GET|POST|PUT|PATCH|DELETE)\s+\/?[a-z{]/,
  /\/v1\/|\/organizations\/|\bconfigurations\/|\bdevices\//,
  /\{id\}|:serialNumber|:orgId/,
  /\b(ServiceError|CloudError|NetworkError|AuthError|JobFailure|FileFormatError|DeviceError|DeviceTimeoutError|CoreError|TypeError|undefined|null)\b/,
  /\bat \S+ \(|\.ts:\d+/,
];

function routeFree(text: string): boolean {
  return FORBIDDEN.every((pattern) => !pattern.test(text));
}

describe('the error catalogue', () => {
  it('docs/errors.md is the catalogue, as scripts/errors-doc.ts makes it', () => {
    expect(readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8')).toBe(errorsDoc());
  });

  it('has one entry per code, each saying what happened, why it matters and what to do', () => {
    const codes = ERROR_CATALOGUE.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const entry of ERROR_CATALOGUE) {
      for (const text of [entry.what, entry.why, entry.todo]) expect(text.length, entry.code).toBeGreaterThan(5);
    }
  });

  it('has an entry for every code the device protocol defines', () => {
    const device = [
      ...Object.values(DEVICE_ERROR),
      ...Object.values(DEVICE_ERROR_MORE),
      ...Object.values(DEVICE_ERROR_CODING),
    ];
    expect(device.length).toBeGreaterThan(25);
    expect(device.filter((code) => !catalogueEntry(code))).toEqual([]);
  });

  it('has an entry for every code the app core answers its windows with', () => {
    expect(ERROR_CODES.filter((code) => !catalogueEntry(code))).toEqual([]);
  });

  it('has an entry for every code the service, the host and the file checks produce', () => {
    const found = codesInSources();
    // The walk finds the codes it should: service, job, file and link ones.
    for (const known of [
      'DEVICE_NOT_IN_CONFIGURATION',
      'API_KEY_INVALID',
      'FW_NOT_RUNNING',
      'CONFIG_WRONG_TYPE',
      'DEVICE_GONE',
      'NO_FIRMWARE_CACHED',
      'WP_TAMPERED',
    ]) {
      expect(found.has(known), known).toBe(true);
    }
    const missing = [...found].filter(([code]) => !catalogueEntry(code)).map(([code, path]) => `${code} (${path})`);
    expect(missing).toEqual([]);
  });

  it('families stand for their codes: a bare CoAP answer and a bare HTTP status', () => {
    expect(catalogueEntry('COAP_4.04')?.code).toBe('COAP_*');
    expect(catalogueEntry('HTTP_502')?.code).toBe('HTTP_*');
    expect(catalogueEntry('NO_SUCH_CODE_ANYWHERE')).toBeUndefined();
  });

  it('no entry names an HTTP method, a route, an internal type or a stack', () => {
    const offending = ERROR_CATALOGUE.filter((e) => ![e.what, e.why, e.todo].every(routeFree)).map((e) => e.code);
    expect(offending).toEqual([]);
    expect(routeFree('add it to one (POST configurations/{id}/devices)')).toBe(false);
  });

  it("no service refusal's message names an HTTP method or a route", () => {
    // The message argument of every refusal the service makes: badRequest('CODE', `message`…), conflict(…), …
    const refusal =
      /(?:conflict|notFound|badRequest|unauthorized|forbidden)\(\s*'[A-Z_]+',\s*(`[^`]*`|'[^']*'|"[^"]*")/g;
    const messages: string[] = [];
    for (const path of sourceFiles('server'))
      for (const m of readFileSync(join(ROOT, path), 'utf8').matchAll(refusal)) messages.push(m[1]!);
    expect(messages.length).toBeGreaterThan(20);
    expect(messages.filter((m) => !routeFree(m.replace(/\$\{[^}]*\}/g, 'X')))).toEqual([]);
  });
});
