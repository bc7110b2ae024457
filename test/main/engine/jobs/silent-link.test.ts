import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startPtyRelay } from '../../../fixtures/pty-relay';
import { logInCli, registerDevices, worldPerTest, type World } from './helpers/world';

/**
 * A pulled cable is seen at once (issue 32): the device sits behind a relay, as on a bench where a
 * USB hub or a serial server joins two ptys. Killing the relay leaves the host's port open but
 * silent, the case that kept "38 % · 4 s left" on screen for a minute; closing the port is the other
 * case. Through the real CLI, within a bounded wait of 10 s.
 */

const startWorld = worldPerTest();
const relays: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.allSettled(relays.splice(0).map((r) => r.stop()));
});

/** Bounded wait: what `until` resolves with, or 'not within the wait' once `ms` passed. */
function within<T>(ms: number, until: Promise<T>): Promise<T | 'not within the wait'> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<'not within the wait'>(
    (resolve) => (timer = setTimeout(() => resolve('not within the wait'), ms)),
  );
  return Promise.race([until, limit]).finally(() => clearTimeout(timer));
}

/**
 * EPC000101 behind a relay (test/fixtures/pty-relay.ts; the CLI sees only the relay's port), and
 * its firmware update through the real CLI; `how` is done to the relay once the upload has begun.
 * `wasCut` resolves when that is done.
 */
async function updateAndCut(name: string, how: 'cut' | 'closePort') {
  const w: World = await startWorld(name);
  await registerDevices(w, ['EPC000101']);
  await logInCli(w);
  const device = await w.startDevice({ deviceType: 'EPC', serialNumber: 'EPC000101', link: 'pty', baudRate: 115200 });
  const relay = await startPtyRelay(join(w.root, 'relay'), device.descriptor.path!);
  relays.push(relay);

  const lines: string[] = [];
  let cutDone: Promise<void> | undefined;
  let onLine: ((line: string) => void) | undefined;
  const run = w.cli(['--reconnect-timeout', '2', 'device', 'firmware', 'update', 'EPC000101'], {
    env: { PROVISIONER_PORTS: join(w.root, 'relay', 'ports', '*') },
    onLine: (line) => {
      lines.push(line);
      if (!cutDone && /Uploading firmware/.test(line)) cutDone = relay[how]();
      onLine?.(line);
    },
  });
  const lineMatching = (pattern: RegExp) =>
    new Promise<string>((resolve) => {
      const found = lines.find((l) => pattern.test(l));
      if (found) return resolve(found);
      onLine = (line) => {
        if (pattern.test(line)) resolve(line);
      };
    });
  // Bounded: the upload begins within a minute on a loaded machine, or the test says it did not.
  const wasCut = (async () => {
    for (let i = 0; i < 1200 && !cutDone; i += 1) await new Promise((r) => setTimeout(r, 50));
    if (!cutDone) return 'not within the wait' as const;
    await cutDone;
    return 'cut' as const;
  })();
  return { run, lines, wasCut, lineMatching };
}

describe('a pulled cable is seen at once', () => {
  it(
    'a cut relay: the line says "No answer from the device for 5 s: check the cable" within 10 s, drops the time left, and the job ends failed, resumable',
    { timeout: 300_000 },
    async () => {
      const job = await updateAndCut('silent-relay', 'cut');
      const silenceLine = job.lineMatching(/No answer from the device/);
      expect(await job.wasCut, `the relay was cut during the upload:\n${job.lines.join('\n')}`).not.toBe(
        'not within the wait',
      );
      // The bounded wait starts at the cut: the line says so within 10 s of it.
      const silence = await within(10_000, silenceLine);
      expect(silence, job.lines.join('\n')).not.toBe('not within the wait');
      expect(silence).toMatch(
        /^EPC000101: Uploading firmware 1\.1\.0 — \d+% — No answer from the device for \d+ s: check the cable$/,
      );
      expect(silence).not.toMatch(/left|\/s/);

      const result = await job.run;
      expect(result.code).toBe(1);
      const errors = result.stderr.split('\n').filter((line) => line.startsWith('error:'));
      expect(errors).toHaveLength(1);
      // After the engine's retransmission limit: failed, and running it again resumes.
      expect(errors[0]).toMatch(
        /^error: EPC000101: firmware upload failed at \d+% .*run the same command again to resume/,
      );
    },
  );

  it('a closed port: the job ends failed and resumable within 10 s', { timeout: 300_000 }, async () => {
    const job = await updateAndCut('closed-port', 'closePort');
    expect(await job.wasCut, `the port was closed during the upload:\n${job.lines.join('\n')}`).not.toBe(
      'not within the wait',
    );
    // The bounded wait starts at the close: the job has ended within 10 s of it.
    const result = await within(10_000, job.run);
    expect(result, job.lines.join('\n')).not.toBe('not within the wait');
    if (result === 'not within the wait') return;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /error: EPC000101: firmware upload failed at \d+% \(cable pulled\?\): .*run the same command again to resume/,
    );
  });
});
