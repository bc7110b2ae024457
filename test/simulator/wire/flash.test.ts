import { afterEach, describe, expect, it, vi } from 'vitest';
import { FlashModel } from '../../../simulator/wire/flash';

afterEach(() => {
  vi.useRealTimers();
});

/** A flash of 1000 bytes per second on a clock the test moves, with a 20 ms write buffer. */
function slowFlash() {
  vi.useFakeTimers();
  let now = 0;
  const clock = () => now;
  const flash = new FlashModel(1000, clock, 20);
  const advance = async (ms: number) => {
    now += ms;
    await vi.advanceTimersByTimeAsync(ms);
  };
  return { flash, advance };
}

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
};

describe('FlashModel', () => {
  it('takes writes that fit its buffer at once', async () => {
    const { flash } = slowFlash();
    // 10 bytes = 10 ms of flash time, within the 20 ms buffer.
    expect(await settled(flash.write(10))).toBe(true);
    expect(await settled(flash.write(10))).toBe(true);
  });

  it("holds a writer that is more than the buffer ahead until half the buffer is left, so the long-run rate is the model's", async () => {
    const { flash, advance } = slowFlash();
    // 100 ms of flash time queued: the writer waits until 10 ms of it remain.
    const write = flash.write(100);
    expect(await settled(write)).toBe(false);
    await advance(89);
    expect(await settled(write)).toBe(false);
    await advance(1);
    expect(await settled(write)).toBe(true);
    // The flash is still busy with the last 10 ms: the next 100 bytes end 110 ms from now.
    const next = flash.write(100);
    await advance(99);
    expect(await settled(next)).toBe(false);
    await advance(1);
    expect(await settled(next)).toBe(true);
  });

  it('never waits with an infinite rate', async () => {
    const flash = new FlashModel(Number.POSITIVE_INFINITY);
    expect(await settled(flash.write(1_000_000))).toBe(true);
  });
});
