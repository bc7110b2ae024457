import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeFunctionTest, verdictOf, type FunctionTestDevice } from '../../../../main/features/function-test';
import type { SimulatedDevice } from '../../../../simulator';
import { useScratchDir } from '../../../fixtures/scratch';
import { startUdpDevice } from '../../../fixtures/simulated-device';

/**
 * Issue 32: the function test's watch ends one of three ways, each said: a press seen, the wait
 * for it over (timed out), or the technician's Stop; a real simulated EPC on UDP on loopback.
 */

const scratch = useScratchDir('watch-ends');
let device: SimulatedDevice;
let underTest: FunctionTestDevice;

beforeAll(async () => {
  device = await startUdpDevice(scratch.dir, { serialNumber: 'EPC000131', firmwareVersion: '1.1.0' });
  underTest = { serialNumber: 'EPC000131', link: `udp:${device.descriptor.host}:${device.descriptor.port}` };
});

afterAll(async () => {
  await device?.stop();
});

describe('how a function test watch ends', () => {
  it('ends "stopped" when the technician stops it before a press, recorded as not done', async () => {
    const stop = new AbortController();
    // Stopped as the watch becomes ready, before it listens for the abort: it must end at once, not wait out the default 120 s.
    const observation = await observeFunctionTest(underTest, [], { signal: stop.signal, onReady: () => stop.abort() });
    expect(observation).toMatchObject({ pressed: false, ended: 'stopped', pressedAt: null });
    expect(verdictOf(observation, undefined)).toEqual({ result: 'fail', reasons: ['not done: stopped'] });
  });

  it('ends "timed-out" when no press comes within the wait', async () => {
    const observation = await observeFunctionTest(underTest, [], { pressTimeoutMs: 200 });
    expect(observation).toMatchObject({ pressed: false, ended: 'timed-out' });
    expect(verdictOf(observation, 'pass').reasons).toEqual(['not done: timed out']);
  });

  it('ends "pressed" when the E-stop is pressed, a Stop after it changing nothing', async () => {
    const stop = new AbortController();
    const observation = await observeFunctionTest(underTest, [], {
      signal: stop.signal,
      pressTimeoutMs: 600_000,
      onReady: () => void device.pressEstop(),
    });
    stop.abort();
    expect(observation).toMatchObject({ pressed: true, ended: 'pressed' });
    expect(verdictOf(observation, 'pass')).toEqual({ result: 'pass', reasons: [] });
  });
});
