import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { haproxyConfig, waitUntilOk } from '../../scripts/stack';
import { openedWhile, PER_FILE } from '../fixtures/opened-while';
import { useScratchDir } from '../fixtures/scratch';
import { demoServicePerFile } from '../fixtures/test-core';

/**
 * The stack's load balancer keeps /metrics internal however the path is spelled: the HAProxy
 * configuration `npm run stack -- up` writes (scripts/stack.ts), run by a real haproxy in front of
 * a real instance, asked with raw requests (a URL parser would normalize them first). What the
 * instance answers carries its X-Request-Id; what HAProxy refuses does not.
 */

const haproxyInstalled = spawnSync('haproxy', ['-v']).status === 0;
const scratch = useScratchDir('stack-metrics');
const demo = demoServicePerFile();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const balancer = openedWhile(
  PER_FILE,
  'HAProxy in front of the demo instance',
  async () => {
    const port = await freePort();
    const config = join(scratch.dir, 'haproxy.cfg');
    const instance = {
      name: 'instance-1',
      pid: 0,
      port: demo.service.port,
      url: `http://127.0.0.1:${demo.service.port}`,
      log: '',
    };
    writeFileSync(config, haproxyConfig(port, [instance]));
    const child: ChildProcess = spawn('haproxy', ['-db', '-f', config], { stdio: 'ignore' });
    await waitUntilOk(`http://127.0.0.1:${port}/readyz`, 300);
    return { port, child };
  },
  async ({ child }) => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  },
);

/** One request with the path exactly as given; the status and whether the instance answered it. */
function rawGet(port: number, path: string): Promise<{ status: number; fromInstance: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('end', () => {
      const head = answer.split('\r\n\r\n')[0] ?? '';
      resolve({
        status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0),
        fromInstance: /\r\nx-request-id:/i.test(head),
      });
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
  });
}

describe.skipIf(!haproxyInstalled)('the load balancer and /metrics (needs haproxy; .ci/run installs it)', () => {
  it('passes ordinary requests on to the instance, which would serve /metrics to the balancer', async () => {
    const { port } = balancer();
    expect(await rawGet(port, '/readyz')).toEqual({ status: 200, fromInstance: true });
    expect(await rawGet(port, '/v1/version')).toMatchObject({ fromInstance: true });
    expect(await rawGet(port, '/metricsfoo')).toMatchObject({ fromInstance: true });
    // Asked from the balancer's own address, the instance answers: a request let through would leak.
    expect(await rawGet(demo.service.port, '/metrics')).toEqual({ status: 200, fromInstance: true });
  });

  const spellings = [
    '/metrics',
    '/metrics/',
    '/METRICS',
    '/Metrics',
    '/%6detrics',
    '/%6Detrics',
    '/%2fmetrics',
    '/%2Fmetrics',
    '//metrics',
    '///metrics',
    '/./metrics',
    '/%2e/metrics',
    '/x/../metrics',
    '/x/%2e%2e/metrics',
    '/x/..%2fmetrics',
    '/metrics;x',
    '/metrics?x=1',
    '/%5cmetrics',
    '/%252fmetrics',
    '/%25%36%64etrics',
  ];
  for (const spelling of spellings) {
    it(`refuses ${spelling} at the balancer`, async () => {
      const answer = await rawGet(balancer().port, spelling);
      expect(answer.fromInstance).toBe(false);
      expect([400, 404]).toContain(answer.status);
    });
  }
});
