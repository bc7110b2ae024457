import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFirmwareBundle } from '../../domain/files';
import { runInProcess, useOperatorDataDir } from './cli-run';
import { openDatabase } from '../../server';

/**
 * The operator commands, in-process through the same commander program (fast), and the real
 * entry points as child processes for what only a process shows: exit codes, signals, stdout.
 */
describe('operator commands', () => {
  const operator = useOperatorDataDir('cli');

  it('seed-demo prints only the Admin key, the same one when run again', async () => {
    const first = await runInProcess(['seed-demo', '--data', operator.data]);
    const second = await runInProcess(['--data', operator.data, 'seed-demo']);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^pvk_[A-Za-z0-9_-]{43}\n$/);
    expect(second.out).toBe(first.out);
  });

  it('creates organizations and keys; key create prints only the key', async () => {
    expect(
      await runInProcess(['org', 'create', 'acme', '--region', 'EU', '--name', 'ACME', '--data', operator.data]),
    ).toMatchObject({ code: 0, out: 'created organization acme (region EU)\n' });
    expect((await runInProcess(['org', 'create', 'acme', '--data', operator.data])).err).toMatch(/already exists/);
    const key = await runInProcess([
      'key',
      'create',
      '--org',
      'acme',
      '--name',
      'line-1',
      '--role',
      'Service',
      '--data',
      operator.data,
    ]);
    expect(key.code).toBe(0);
    expect(key.out).toMatch(/^pvk_\S+\n$/);
    expect(
      (
        await runInProcess([
          'key',
          'create',
          '--org',
          'acme',
          '--name',
          'line-1',
          '--role',
          'Service',
          '--data',
          operator.data,
        ])
      ).err,
    ).toMatch(/already has a key named/);
    expect(
      (
        await runInProcess([
          'key',
          'create',
          '--org',
          'nope',
          '--name',
          'k',
          '--role',
          'Admin',
          '--data',
          operator.data,
        ])
      ).err,
    ).toMatch(/no organization "nope"/);
  });

  it('refuses bad arguments with a usage message and a non-zero exit', async () => {
    for (const args of [
      ['org', 'create', 'x', '--region', 'APAC'],
      ['key', 'create', '--org', 'demo', '--name', 'k', '--role', 'Root'],
      ['key', 'create', '--org', 'demo'],
      ['firmware', 'build', '--type', 'XYZ', '--version', '1', '--out', 'f.zip'],
      ['serve', '--port', 'eighty'],
      ['nonsense'],
    ]) {
      const run = await runInProcess(args);
      expect(run.code, args.join(' ')).not.toBe(0);
      expect(run.err, args.join(' ')).toMatch(/error:|Usage:/);
    }
  });

  it('imports manufacturing records, all or nothing, with an error per bad line', async () => {
    const bad = join(operator.dir, 'bad.csv');
    writeFileSync(bad, 'serialNumber,deviceType,model\nABC000001,EPC,EPC-300\nABC000002,TOASTER,T-1\n,EPC,x\n');
    const refused = await runInProcess(['devices', 'import', bad, '--data', operator.data]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/line 3: device type "TOASTER"/);
    expect(refused.err).toMatch(/line 4: serial number ""/);
    const good = join(operator.dir, 'good.csv');
    writeFileSync(
      good,
      'serialNumber,deviceType,model\r\nABC000001,EPC,EPC-300\r\nABC000002,nscp,"NSCP-400, rev B"\r\n',
    );
    expect(await runInProcess(['devices', 'import', good, '--data', operator.data])).toMatchObject({
      code: 0,
      out: 'imported 2 manufacturing records (2 new, 0 updated)\n',
    });
    expect((await runInProcess(['devices', 'import', good, '--data', operator.data])).out).toMatch(/0 new, 2 updated/);
    const db = await openDatabase({ dataDir: operator.data });
    const { rows } = await db.query(
      "SELECT serial_number, device_type, model FROM manufacturing_records WHERE serial_number LIKE 'ABC%' ORDER BY 1",
    );
    await db.close();
    expect(rows).toEqual([
      { serial_number: 'ABC000001', device_type: 'EPC', model: 'EPC-300' },
      { serial_number: 'ABC000002', device_type: 'NSCP', model: 'NSCP-400, rev B' },
    ]);
    expect(
      (await runInProcess(['devices', 'import', join(operator.dir, 'missing.csv'), '--data', operator.data])).err,
    ).toMatch(/Cannot read/);
  });

  it('builds a valid bundle and imports it after checking manifest and hashes', async () => {
    const zip = join(operator.dir, 'wesp.zip');
    expect(
      (
        await runInProcess([
          'firmware',
          'build',
          '--type',
          'WESP',
          '--version',
          '2.0.0',
          '--out',
          zip,
          '--size',
          '1024',
          '--data',
          operator.data,
        ])
      ).code,
    ).toBe(0);
    expect(readFirmwareBundle(new Uint8Array(readFileSync(zip)))).toMatchObject({
      deviceType: 'WESP',
      version: '2.0.0',
    });
    expect(
      (await runInProcess(['firmware', 'import', '--type', 'WESP', '--version', '2.0.0', zip, '--data', operator.data]))
        .out,
    ).toMatch(/^imported WESP firmware 2.0.0/);
    const wrong = await runInProcess([
      'firmware',
      'import',
      '--type',
      'EPC',
      '--version',
      '2.0.0',
      zip,
      '--data',
      operator.data,
    ]);
    expect(wrong).toMatchObject({ code: 1 });
    expect(wrong.err).toMatch(/FW_WRONG_TYPE/);
    const damaged = new Uint8Array(readFileSync(zip));
    damaged[damaged.length - 30] = (damaged[damaged.length - 30] ?? 0) ^ 0xff;
    writeFileSync(join(operator.dir, 'damaged.zip'), damaged);
    expect(
      (
        await runInProcess([
          'firmware',
          'import',
          '--type',
          'WESP',
          '--version',
          '2.0.0',
          join(operator.dir, 'damaged.zip'),
          '--data',
          operator.data,
        ])
      ).code,
    ).toBe(1);
  });

  it('shows the signing key', async () => {
    const pem = await runInProcess(['signing-key', 'show', '--data', operator.data]);
    expect(pem.out).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+-----END PUBLIC KEY-----\n$/);
    const json = JSON.parse((await runInProcess(['signing-key', 'show', '--json', '--data', operator.data])).out);
    expect(json).toMatchObject({ algorithm: 'ES256', publicKeyPem: pem.out });
  });

  it('serve (the bin entry) prints where it listens, answers, and stops cleanly on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      ['bin/provisioner-service.mjs', 'serve', '--port', '0', '--data', operator.data],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
    const version = await fetch(`${url}/v1/version`);
    expect(version.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout).toBe(`listening on ${url}\n`);
    const lines = stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; req?: { url: string } });
    expect(lines.some((line) => line.req?.url === '/v1/version')).toBe(true);
  });

  it('exits non-zero from the bin entry on bad arguments', async () => {
    const child = spawn(process.execPath, ['bin/provisioner-service.mjs', 'key', 'create'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/required option/);
  });
});
