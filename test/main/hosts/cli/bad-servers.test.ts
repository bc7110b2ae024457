import { spawn } from 'node:child_process';
import { mkdir, readdir } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lastResortLine } from '../../../../main/hosts/cli/last-resort';
import { cliLoginStore } from '../../../../main/hosts/cli/credentials';
import { resolveDataDirs } from '../../../../platform/data-dirs';
import { useScratchDirPerTest } from '../../../fixtures/scratch';

/**
 * A service (or a proxy in front of it) that answers badly, as a raw TCP server on 127.0.0.1: the
 * real `provisioner` process, signed in to it, says what went wrong in one line, exits 1, never
 * with an uncaught exception or a stack, and leaves no file behind in the output directory.
 */

const BIN = fileURLToPath(new URL('../../../../bin/provisioner.mjs', import.meta.url));
const scratch = useScratchDirPerTest('bad-servers');

/** The latest version's answer, well formed, so that the bad answer is the download's own. */
const VERSION_ANSWER = JSON.stringify({ success: true, data: { deviceType: 'EPC', version: '1.1.0' } });

/**
 * Answers the question for the latest version properly (then closes), and every other request on
 * a connection with `answer` (which writes to the socket and ends or destroys it).
 */
async function rawServer(answer: (socket: Socket) => void): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((socket) => {
    socket.on('error', () => undefined); // the client hangs up on what it cannot read
    socket.once('data', (request: Buffer) => {
      if (!/^GET \S+\/version /.test(request.toString('latin1'))) return answer(socket);
      socket.end(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${VERSION_ANSWER.length}\r\nConnection: close\r\n\r\n${VERSION_ANSWER}`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `provisioner device firmware download -t EPC -o OUT` as its own process, signed in to `url` (the login kept as login keeps it). */
async function downloadFrom(
  url: string,
): Promise<{ code: number | null; stderr: string; stdout: string; out: string }> {
  const home = join(scratch.dir, 'home');
  const out = join(scratch.dir, 'out');
  await mkdir(home, { recursive: true, mode: 0o700 });
  await mkdir(out);
  await cliLoginStore(resolveDataDirs({}, home)).save({
    serviceUrl: url,
    orgId: 'demo',
    apiKey: 'pk_test',
    keyName: 'test',
    role: 'Admin',
  });
  const child = spawn(
    process.execPath,
    [BIN, '--data-dir', home, 'device', 'firmware', 'download', '-t', 'EPC', '-o', out],
    {
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr, stdout, out };
}

const BODY = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(64 * 1024, 7)]);

const cases: Array<{ name: string; answer: (socket: Socket) => void; says: RegExp }> = [
  {
    name: 'an HTTP/1.0 answer with no length, ended by closing',
    answer: (socket) =>
      socket.end(Buffer.concat([Buffer.from('HTTP/1.0 200 OK\r\nContent-Type: application/zip\r\n\r\n'), BODY])),
    says: /^error: the firmware bundle the service sent was refused and nothing was saved: The firmware file is not a valid zip bundle/,
  },
  {
    name: 'an HTTP/1.0 keep-alive answer that promises more than it sends',
    answer: (socket) =>
      socket.end(
        Buffer.concat([
          Buffer.from(`HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: ${BODY.length * 4}\r\n\r\n`),
          BODY,
        ]),
      ),
    says: /^error: The connection to the service broke: the connection closed before the whole answer arrived \(UND_ERR_SOCKET\); check the service URL and the network, or run again later\n$/,
  },
  {
    name: 'a connection cut before any answer',
    answer: (socket) => socket.destroy(),
    says: /^error: The connection to the service broke: the connection closed before the whole answer arrived \(UND_ERR_SOCKET\); check the service URL and the network, or run again later\n$/,
  },
  {
    name: 'a connection cut in the middle of the body',
    answer: (socket) => {
      socket.write(
        Buffer.concat([
          Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: application/zip\r\nContent-Length: ${BODY.length}\r\n\r\n`),
          BODY.subarray(0, 1000),
        ]),
      );
      setImmediate(() => socket.destroy());
    },
    says: /^error: The connection to the service broke: the connection closed before the whole answer arrived \(UND_ERR_SOCKET\); check the service URL and the network, or run again later\n$/,
  },
  {
    name: 'a Content-Length shorter than the body',
    answer: (socket) =>
      socket.end(
        Buffer.concat([
          Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: application/zip\r\nContent-Length: 10\r\n\r\n'),
          BODY,
        ]),
      ),
    says: /^error: the firmware bundle the service sent was refused and nothing was saved: The firmware file is not a valid zip bundle/,
  },
  {
    name: 'bytes that are not HTTP',
    answer: (socket) => socket.end('SSH-2.0-OpenSSH_9.2\r\n'),
    says: /^error: The connection to the service broke: the answer is not valid HTTP \(Response does not match the HTTP\/1\.1 protocol.*\); check the service URL and the network, or run again later\n$/,
  },
];

describe('a service that answers badly', () => {
  for (const { name, answer, says } of cases) {
    it(`${name}: one clear error line, exit 1, nothing left in the output directory`, async () => {
      const server = await rawServer(answer);
      try {
        const run = await downloadFrom(server.url);
        expect(run.stderr).toMatch(says);
        expect(run.stderr.trim().split('\n')).toHaveLength(1);
        expect(run.stderr).not.toMatch(/\n\s+at |Uncaught|AssertionError/);
        expect(run.code).toBe(1);
        expect(run.stdout).toBe('');
        expect(await readdir(run.out)).toEqual([]);
      } finally {
        await server.close();
      }
    });
  }
});

describe('the last resort line', () => {
  it('names an HTTP client failure that escaped every handler as the connection, without a stack', () => {
    const assertion = Object.assign(
      new Error('The expression evaluated to a falsy value:\n\n  assert(client[kRunning] === 0)\n'),
      { code: 'ERR_ASSERTION' },
    );
    expect(lastResortLine(assertion)).toBe(
      'The connection to the service broke: its answer could not be read as HTTP (ERR_ASSERTION); check the service URL and any proxy in between, or run again later',
    );
    expect(lastResortLine(new RangeError('boom'))).toBe('unexpected failure: boom');
  });
});
