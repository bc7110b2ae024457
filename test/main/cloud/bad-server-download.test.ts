import { readdir } from 'node:fs/promises';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServiceClient, NetworkError } from '../../../main/cloud';
import { useScratchDirPerTest } from '../../fixtures/scratch';

/**
 * The API client's streaming download (main/cloud/download.ts) against a raw TCP server on
 * 127.0.0.1 that answers badly: a typed NetworkError, and no file, temporary or empty, left in the
 * directory.
 */

const scratch = useScratchDirPerTest('bad-server-download');
const BODY = Buffer.alloc(256 * 1024, 7);

async function downloadFromRaw(answer: (socket: Socket) => void): Promise<unknown> {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => answer(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const client = createServiceClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      orgId: 'demo',
      apiKey: 'k',
      retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    });
    return await client.devices.downloadFirmwareByType('EPC', { path: join(scratch.dir, 'EPC.zip') }).then(
      () => 'saved',
      (error: unknown) => error,
    );
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('a streaming download from a server that answers badly', () => {
  it('HTTP/1.0 promising more than it sends: NetworkError, nothing on disk', async () => {
    const error = await downloadFromRaw((socket) =>
      socket.end(Buffer.concat([Buffer.from(`HTTP/1.0 200 OK\r\nContent-Length: ${BODY.length * 2}\r\n\r\n`), BODY])),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(
      /^The connection to the service broke: the (answer was not as long as its Content-Length said \(UND_ERR_RES_CONTENT_LENGTH_MISMATCH\)|connection closed before the whole answer arrived \(UND_ERR_SOCKET\))$/,
    );
    expect(await readdir(scratch.dir)).toEqual([]);
  });

  it('a connection cut in the body: NetworkError, nothing on disk', async () => {
    const error = await downloadFromRaw((socket) => {
      socket.write(
        Buffer.concat([
          Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${BODY.length}\r\n\r\n`),
          BODY.subarray(0, 4096),
        ]),
      );
      setImmediate(() => socket.destroy());
    });
    expect(error).toBeInstanceOf(NetworkError);
    expect(await readdir(scratch.dir)).toEqual([]);
  });

  it('an answer that is not HTTP: NetworkError naming it, nothing on disk', async () => {
    const error = await downloadFromRaw((socket) => socket.end('220 mail.example ESMTP\r\n'));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(
      /^The connection to the service broke: the answer is not valid HTTP \(.+\)$/,
    );
    expect(await readdir(scratch.dir)).toEqual([]);
  });
});
