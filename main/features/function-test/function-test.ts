import type { SafetyStatus } from '../../../protocol/safety';
import type { LinkFactoryDeps } from '../../devices';
import { watchSafety, type SafetyWatch } from './safety-watch';

/**
 * The function test after a configuration apply: with every device of the configuration watched,
 * the technician presses the E-stop on the device under test, and the app sees the press and each
 * receiver's trip as the devices report them. The reaction time is what this computer observed
 * between the press and each trip, not a number the technician types in.
 */

export interface FunctionTestDevice {
  serialNumber: string;
  /** Where it is attached: serial:/dev/ttyACM0, udp:HOST:PORT, ble:ADDRESS. */
  link: string;
}

export interface ReceiverReaction {
  serialNumber: string;
  tripped: boolean;
  /** From the press to this receiver's trip, as observed here; null when it did not trip. */
  reactionMs: number | null;
  /** Who the receiver says tripped it. */
  trippedBy: string | null;
}

/** How the watch ended: a press seen, the wait for it over, or the technician's Stop. */
export type FunctionTestEnd = 'pressed' | 'timed-out' | 'stopped';

export interface FunctionTestObservation {
  pressed: boolean;
  /** Why the watch ended; a test that ended 'timed-out' or 'stopped' was not done. */
  ended: FunctionTestEnd;
  /** When the press was seen (ISO 8601), null when it was not. */
  pressedAt: string | null;
  receivers: ReceiverReaction[];
  /** Receivers of the configuration that could not be watched (not attached, not answering): they count as not tripped. */
  unreachable: { serialNumber: string; reason: string }[];
}

export interface ObserveOptions {
  linkDeps?: LinkFactoryDeps;
  /** How long to wait for the press once the technician is asked. Default 120 s. */
  pressTimeoutMs?: number;
  /** How long after the press every receiver must have tripped. Default 3 s. */
  tripTimeoutMs?: number;
  /** Everything is watched: ask the technician to press now. */
  onReady?: () => void;
  signal?: AbortSignal;
}

/** Watches the device under test and its receivers through one press of the E-stop. */
export async function observeFunctionTest(
  device: FunctionTestDevice,
  receivers: readonly FunctionTestDevice[],
  options: ObserveOptions = {},
): Promise<FunctionTestObservation> {
  const pressTimeoutMs = options.pressTimeoutMs ?? 120_000;
  const tripTimeoutMs = options.tripTimeoutMs ?? 3_000;
  const watchOptions = {
    ...(options.linkDeps ? { linkDeps: options.linkDeps } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  // The receivers are watched before the device under test: a press can come as soon as the
  // device is watched (a quick technician, or the simulator's), and a trip before its receiver is
  // watched would be counted as already there.
  const watched: SafetyWatch[] = [];
  const unreachable: FunctionTestObservation['unreachable'] = [];
  const opened = await Promise.allSettled(receivers.map((receiver) => watchSafety(receiver, watchOptions)));
  opened.forEach((result, i) => {
    if (result.status === 'fulfilled') watched.push(result.value);
    else
      unreachable.push({
        serialNumber: receivers[i]!.serialNumber,
        reason: result.reason instanceof Error ? result.reason.message : String(result.reason),
      });
  });
  let sender: SafetyWatch;
  try {
    sender = await watchSafety(device, watchOptions);
  } catch (error) {
    await Promise.all(watched.map((watch) => watch.close()));
    throw error;
  }
  try {
    let pressAtMs: number | undefined;
    let pressedAt: string | null = null;
    const trips = new Map<string, { atMs: number; status: SafetyStatus }>();
    let settle: (() => void) | undefined;
    const done = new Promise<void>((resolve) => (settle = resolve));
    let seePress: (() => void) | undefined;
    const pressSeen = new Promise<void>((resolve) => (seePress = resolve));
    const check = () => {
      if (pressAtMs !== undefined && trips.size === watched.length) settle?.();
    };
    sender.onChange((status, atMs) => {
      if (pressAtMs === undefined && status.presses > sender.first.presses) {
        pressAtMs = atMs;
        pressedAt = new Date().toISOString();
        seePress?.();
        check();
      }
    });
    for (const watch of watched) {
      watch.onChange((status, atMs) => {
        if (!trips.has(watch.serialNumber) && status.trips > watch.first.trips) {
          trips.set(watch.serialNumber, { atMs, status });
          check();
        }
      });
    }
    options.onReady?.();

    // A Stop that came while the devices were being opened ends the watch at once.
    const abort = options.signal?.aborted
      ? Promise.resolve()
      : new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve(), { once: true }));
    const pressDeadline = delay(pressTimeoutMs);
    await Promise.race([pressSeen, pressDeadline.promise, abort]);
    pressDeadline.cancel();
    if (pressAtMs !== undefined) {
      const tripDeadline = delay(tripTimeoutMs);
      await Promise.race([done, tripDeadline.promise, abort]);
      tripDeadline.cancel();
    }
    const pressMs = pressAtMs;
    // A press seen counts even when Stop came after it: the receivers' trips say the rest.
    const ended: FunctionTestEnd =
      pressMs !== undefined ? 'pressed' : options.signal?.aborted ? 'stopped' : 'timed-out';
    return {
      pressed: pressMs !== undefined,
      ended,
      pressedAt,
      receivers: watched.map((watch) => {
        const trip = trips.get(watch.serialNumber);
        // A receiver's notification may overtake the sender's on another link: it reacted at once.
        const reactionMs = trip && pressMs !== undefined ? Math.max(0, Math.round(trip.atMs - pressMs)) : null;
        return {
          serialNumber: watch.serialNumber,
          tripped: trip !== undefined && pressMs !== undefined,
          reactionMs,
          trippedBy: trip?.status.trippedBy ?? null,
        };
      }),
      unreachable,
    };
  } finally {
    await Promise.all([sender.close(), ...watched.map((watch) => watch.close())]);
  }
}

function delay(ms: number): { promise: Promise<void>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return { promise, cancel: () => clearTimeout(timer) };
}
