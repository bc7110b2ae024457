import fc from 'fast-check';
import type { z } from 'zod';

/**
 * Inputs shaped like what a zod schema takes, and mutated away from it: the right keys with values
 * of the right kind most of the time, then a wrong type, a missing or extra key, a value at an
 * edge. Random JSON alone rarely gets past an object's first check; these reach the nested rules.
 * Only the schema kinds the service's bodies and queries use are walked; others get any JSON.
 */

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  out?: z.ZodType;
  entries?: Record<string, string | number>;
  values?: unknown[];
  valueType?: z.ZodType;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 3 });

const text: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.uuid(),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.emailAddress(),
  fc.ipV4(),
  fc.constantFrom('', ' ', 'a'.repeat(300), '0', '-1', 'true', 'null', '1e309', '0x10', '１２'),
);

const number: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, -1, 1.5, 2 ** 31, 2 ** 53 + 2, Number.MAX_VALUE, Number.NaN, Number.POSITIVE_INFINITY),
);

function shaped(schema: z.ZodType, depth: number): fc.Arbitrary<unknown> {
  if (depth > 6) return anyJson;
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const fields = Object.fromEntries(
        Object.entries(def.shape ?? {}).map(([key, field]) => [key, nearValid(field, depth + 1)]),
      );
      return fc
        .tuple(
          fc.record(fields, { requiredKeys: [] }),
          fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 2 }),
          fc.boolean(),
        )
        .map(([known, extra, withExtra]) => (withExtra ? { ...extra, ...known } : known));
    }
    case 'array':
      return fc.array(nearValid(def.element!, depth + 1), { maxLength: 5 });
    case 'optional':
      return fc.oneof(nearValid(def.innerType!, depth + 1), fc.constant(undefined));
    case 'nullable':
      return fc.oneof(nearValid(def.innerType!, depth + 1), fc.constant(null));
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return nearValid(def.innerType!, depth + 1);
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => nearValid(option, depth + 1)));
    case 'pipe':
      // z.preprocess is a pipe from a transform: what it finally checks is the shape to aim at.
      return fc.oneof(nearValid(def.out!, depth + 1), nearValid(def.in!, depth + 1));
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 10 }), nearValid(def.valueType!, depth + 1), { maxKeys: 4 });
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      return fc.oneof(
        fc.constantFrom(...values),
        fc.constantFrom(...values).map((v) => String(v).toLowerCase()),
        text,
      );
    }
    case 'literal':
      return fc.oneof(fc.constantFrom(...(def.values ?? [null])), text);
    case 'string':
      return text;
    case 'number':
      return number;
    case 'boolean':
      return fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', 'yes', 1, 0));
    default:
      return anyJson;
  }
}

/** Mostly shaped like `schema` takes, sometimes anything at all in its place. */
export function nearValid(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: shaped(schema, depth), weight: 5 }, { arbitrary: anyJson, weight: 1 });
}

/**
 * As a query string arrives: every value text, or a list of texts when the name repeats.
 * (`nearValid` of a query schema gives typed values; the service sees only text.)
 */
export function asQuery(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  // JSON.stringify: generated objects may have no prototype, so no toString either.
  const asText = (x: unknown): string => (typeof x === 'string' ? x : (JSON.stringify(x) ?? 'undefined'));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, Array.isArray(v) ? v.map(asText) : asText(v)]),
  );
}
