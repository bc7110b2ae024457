import fc from 'fast-check';

/**
 * What every fuzz property here shares. `npm test` runs FUZZ_RUNS cases per property (200 by
 * default); `npm run fuzz` sets FUZZ_RUNS high. A failure prints fast-check's seed and path;
 * FUZZ_SEED (and FUZZ_PATH) replay exactly that run.
 */

function positiveIntegerFromEnv(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 1)
    throw new Error(`${name} must be a positive integer, not ${JSON.stringify(value)}`);
  return parsed;
}

export const FUZZ_RUNS = positiveIntegerFromEnv('FUZZ_RUNS', 200);

/** fc.assert with the run count, and the seed and path to replay when given. */
export function assertFuzz<Ts>(
  property: fc.IProperty<Ts> | fc.IAsyncProperty<Ts>,
  runs = FUZZ_RUNS,
): void | Promise<void> {
  const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
  const path = process.env.FUZZ_PATH;
  return fc.assert(property as fc.IProperty<Ts>, {
    numRuns: runs,
    ...(seed === undefined ? {} : { seed }),
    ...(path === undefined ? {} : { path }),
  });
}

/**
 * The first property of every codec here: what it encodes decodes back to the same value, as
 * `same` compares them (a decoder may return bytes as Buffers, or options in wire order).
 */
export function assertDecodesWhatItEncodes<T>(
  values: fc.Arbitrary<T>,
  encode: (value: T) => Uint8Array,
  decode: (bytes: Uint8Array) => T,
  same: (back: T, value: T) => boolean,
): void {
  assertFuzz(
    fc.property(values, (value) => {
      const back = decode(encode(value));
      if (!same(back, value)) throw new Error(`came back as ${JSON.stringify(back)}`);
    }),
  );
}

/**
 * Runs `parse` and lets through only the parser's own error type: anything else it throws (a
 * TypeError, a RangeError, a stack overflow) fails the property, with the input as counterexample.
 */
export function onlyTypedErrors(parse: () => unknown, isTyped: (error: unknown) => boolean): void {
  try {
    parse();
  } catch (error) {
    if (!isTyped(error)) throw error;
  }
}

/** No single case may make this much memory (a bomb that went off would be far above). */
export const CASE_MEMORY_BOUND_BYTES = 64 * 1024 * 1024;

/** Fails when `work` grows ArrayBuffer or heap memory by more than `bound` bytes. */
export function withinMemory(work: () => void, bound = CASE_MEMORY_BOUND_BYTES): void {
  const before = process.memoryUsage();
  work();
  const after = process.memoryUsage();
  const grown = Math.max(after.arrayBuffers - before.arrayBuffers, after.heapUsed - before.heapUsed);
  if (grown > bound) throw new Error(`one input grew memory by ${grown} bytes, more than ${bound}`);
}

type Mutation =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'set'; at: number; value: number }
  | { kind: 'boundary'; at: number; width: 1 | 2 | 4; value: 'zero' | 'max' | 'high' | 'low' }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'duplicate'; at: number; length: number }
  | { kind: 'truncate'; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({
    kind: fc.constant('boundary' as const),
    at: fc.nat(),
    width: fc.constantFrom(1 as const, 2 as const, 4 as const),
    value: fc.constantFrom('zero' as const, 'max' as const, 'high' as const, 'low' as const),
  }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 16 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);

/** Big-endian and little-endian fields both meet these: lengths and counts at their edges. */
function boundaryBytes(width: 1 | 2 | 4, value: 'zero' | 'max' | 'high' | 'low'): number[] {
  const bytes = new Array<number>(width).fill(value === 'max' ? 0xff : 0);
  if (value === 'high') bytes[0] = 0x80;
  if (value === 'low') bytes[width - 1] = 0x7f;
  return bytes;
}

function apply(input: Uint8Array, m: Mutation): Uint8Array {
  const bytes = Array.from(input);
  const at = bytes.length === 0 ? 0 : m.at % (bytes.length + (m.kind === 'insert' ? 1 : 0));
  switch (m.kind) {
    case 'flip':
      if (bytes.length > 0) bytes[at] = bytes[at]! ^ (1 << m.bit);
      break;
    case 'set':
      if (bytes.length > 0) bytes[at] = m.value;
      break;
    case 'boundary':
      bytes.splice(at, m.width, ...boundaryBytes(m.width, m.value));
      break;
    case 'insert':
      bytes.splice(at, 0, ...m.bytes);
      break;
    case 'delete':
      bytes.splice(at, m.length);
      break;
    case 'duplicate':
      bytes.splice(at, 0, ...bytes.slice(at, at + m.length));
      break;
    case 'truncate':
      bytes.length = at;
      break;
  }
  return Uint8Array.from(bytes);
}

/** `valid` with one to eight byte-level mutations: flips, edge values, inserts, deletes, repeats, a cut. */
export function mutatedBytes(valid: fc.Arbitrary<Uint8Array>): fc.Arbitrary<Uint8Array> {
  return fc
    .tuple(valid, fc.array(mutation, { minLength: 1, maxLength: 8 }))
    .map(([bytes, mutations]) => mutations.reduce(apply, bytes));
}

/** Random bytes, valid encodings and mutated ones, in one stream of inputs. */
export function hostileBytes(valid: fc.Arbitrary<Uint8Array>): fc.Arbitrary<Uint8Array> {
  return fc.oneof(
    { arbitrary: mutatedBytes(valid), weight: 6 },
    { arbitrary: fc.uint8Array({ maxLength: 512 }), weight: 2 },
    { arbitrary: valid, weight: 1 },
  );
}
