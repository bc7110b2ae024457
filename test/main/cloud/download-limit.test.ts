import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../main/cloud';
import { collectBody, DownloadTooLargeError, MAX_DOWNLOAD_BYTES, saveBody } from '../../../main/cloud/download';
import type { DownloadBody } from '../../../main/cloud/http';
import { FakeHttp } from './fake-http';

/** A body whose chunks count how often they were asked for; `count` undefined: never ends. */
function countedBody(headers: Record<string, string>, chunkSize: number, count?: number) {
  const state = { pulled: 0 };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (let i = 0; count === undefined || i < count; i++) {
      state.pulled++;
      yield new Uint8Array(chunkSize).fill(i & 0xff);
    }
  }
  const body: DownloadBody = {
    headers: new Headers(headers),
    httpStatus: 200,
    chunks: chunks(),
    signal: new AbortController().signal,
  };
  return { body, state };
}

async function rejection(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('no error');
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dl-limit-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('download size limit', () => {
  it('refuses a Content-Length above the limit before reading any of the body or making a file', async () => {
    await writeFile(join(dir, 'fw.zip'), 'previous');
    const saved = countedBody({ 'content-length': String(2 ** 30) }, 1024);
    const error = await rejection(saveBody(saved.body, { path: join(dir, 'fw.zip') }));
    expect(error).toBeInstanceOf(DownloadTooLargeError);
    expect((error as DownloadTooLargeError).declaredBytes).toBe(2 ** 30);
    expect((error as Error).message).toBe(
      `The service offered a file of 1073741824 bytes; at most ${MAX_DOWNLOAD_BYTES} are taken, so it was not downloaded.`,
    );
    expect(saved.state.pulled).toBe(0);
    expect(await readdir(dir)).toEqual(['fw.zip']);
    expect(await readFile(join(dir, 'fw.zip'), 'utf8')).toBe('previous');

    const collected = countedBody({ 'content-length': String(MAX_DOWNLOAD_BYTES + 1) }, 1024);
    expect(await rejection(collectBody(collected.body))).toBeInstanceOf(DownloadTooLargeError);
    expect(collected.state.pulled).toBe(0);
  });

  it('stops reading a body that passes the limit (no or a false Content-Length) and keeps nothing of it', async () => {
    const endless = countedBody({}, 1000);
    const error = await rejection(saveBody(endless.body, { path: join(dir, 'fw.zip'), maxBytes: 10_000 }));
    expect(error).toBeInstanceOf(DownloadTooLargeError);
    expect((error as Error).message).toBe(
      'The download went past 10000 bytes, the most taken; it was stopped and nothing was kept.',
    );
    // Ten chunks fit; the eleventh passed the limit and no twelfth was asked for.
    expect(endless.state.pulled).toBe(11);
    expect(await readdir(dir)).toEqual([]);

    const lying = countedBody({ 'content-length': '100' }, 1000);
    expect(await rejection(collectBody(lying.body, { maxBytes: 5000 }))).toBeInstanceOf(DownloadTooLargeError);
    expect(lying.state.pulled).toBe(6);
  });

  it('takes a body up to the limit exactly', async () => {
    const exact = countedBody({ 'content-length': '10000' }, 1000, 10);
    expect((await collectBody(exact.body, { maxBytes: 10_000 })).bytes.length).toBe(10_000);
  });

  it('through the client: an endless firmware download is cut off at the default limit, the connection dropped, not retried', async () => {
    const http = await new FakeHttp().start();
    let sent = 0;
    let closed: Promise<void> | undefined;
    http.always((_req, res) => {
      closed = new Promise((resolve) => res.on('close', () => resolve()));
      res.writeHead(200, { 'content-type': 'application/zip' }); // chunked: no Content-Length
      const chunk = Buffer.alloc(256 * 1024, 0x5a);
      const pump = (): void => {
        let more = true;
        while (!res.destroyed && more) {
          more = res.write(chunk);
          sent += chunk.length;
        }
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    try {
      const client = createServiceClient({ baseUrl: http.url, orgId: 'o', apiKey: 'k', retry: { attempts: 3 } });
      const before = process.memoryUsage().arrayBuffers;
      const error = await rejection(client.devices.fetchFirmwareByType('EPC'));
      expect(error).toBeInstanceOf(DownloadTooLargeError);
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4 * MAX_DOWNLOAD_BYTES);
      await closed;
      expect(http.requests).toHaveLength(1);
      expect(sent).toBeGreaterThan(MAX_DOWNLOAD_BYTES);
    } finally {
      await http.stop();
    }
  });
});
