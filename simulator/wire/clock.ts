/**
 * Monotonic milliseconds with sub-microsecond resolution (hrtime under the hood). Date.now() jumps
 * with the wall clock and has 1 ms resolution: too coarse to pace 921600 baud per chunk.
 */
export type Clock = () => number;

export const monotonicClock: Clock = () => Number(process.hrtime.bigint()) / 1e6;
