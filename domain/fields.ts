import { z } from 'zod';
import { parseCommInterface } from './comm-interface';
import { checkIpv4Address, checkNetmask, type FieldRule } from './rules/field-rules';
import { boundedText, quoteForMessage, TEXT_LIMITS } from './text-limits';
import type { ViolationCode } from './violations';

/**
 * Zod building blocks for payload fields. Issues they raise carry `params.code` (a ViolationCode);
 * parsePayload turns that into the violation's code and keeps the message as written here.
 */

type IssueSink = { issues: { push(issue: z.core.$ZodRawIssue): void } };

export function pushViolation(
  ctx: IssueSink,
  input: unknown,
  code: ViolationCode,
  message: string,
  path?: PropertyKey[],
): void {
  ctx.issues.push({ code: 'custom', message, input, params: { code }, ...(path ? { path } : {}) });
}

/** Attaches a field rule to a schema so the payload reports it under the rule's own code. */
export function withRule<S extends z.ZodType>(schema: S, rule: FieldRule<z.output<S>>): S {
  return schema.superRefine((value, ctx) => {
    const broken = rule(value, '');
    if (broken) ctx.addIssue({ code: 'custom', message: broken.message, params: { code: broken.code } });
  }) as unknown as S;
}

/**
 * An optional payload field. The interface types most fields as nullable and says that, in update
 * payloads, nullable means optional: null is read as "not given" and never reaches the output.
 */
export function optionalField<S extends z.ZodType>(schema: S) {
  return schema
    .nullable()
    .transform((value): z.output<S> | undefined => (value === null ? undefined : (value as z.output<S>)))
    .optional();
}

/**
 * Any input reaches the transform that follows, which reports its own issues; the type parameter
 * only tells clients which forms they may send.
 */
export function anyInput<I>() {
  return z.custom<I>(() => true);
}

/** A canonical enum whose observed variants `normalize` maps to a canonical value (or returns undefined). */
export function normalizedEnum<const V extends readonly [string, ...string[]], I = V[number]>(
  values: V,
  normalize: (input: unknown) => V[number] | undefined,
  accepted: string,
) {
  return anyInput<I>().transform((input, ctx): V[number] => {
    if (input === undefined || input === null) {
      pushViolation(ctx, input, 'REQUIRED', `A value is required: use ${accepted}.`);
      return z.NEVER;
    }
    const value = normalize(input);
    if (value === undefined) {
      pushViolation(ctx, input, 'INVALID_ENUM_VALUE', `${quoteForMessage(input)} is not accepted: use ${accepted}.`);
      return z.NEVER;
    }
    return value;
  });
}

/** Accepts the canonical names in any letter case and with surrounding spaces ('HIGH', ' j1939'). */
export function caseInsensitiveEnum<const V extends readonly [string, ...string[]]>(values: V) {
  return normalizedEnum<V, V[number] | Uppercase<V[number]> | Lowercase<V[number]>>(
    values,
    (input) =>
      typeof input === 'string' ? values.find((v) => v.toLowerCase() === input.trim().toLowerCase()) : undefined,
    values.join(', '),
  );
}

export const commInterfaceField = anyInput<string>().transform((input, ctx): string => {
  if (typeof input !== 'string') {
    pushViolation(
      ctx,
      input,
      input === undefined ? 'REQUIRED' : 'INVALID_TYPE',
      "The communication interface must be a text such as 'BLE', 'Ethernet' or 'BLE,Ethernet'.",
    );
    return z.NEVER;
  }
  const parsed = parseCommInterface(input);
  if (!parsed.ok) {
    pushViolation(ctx, input, parsed.code, parsed.message);
    return z.NEVER;
  }
  return parsed.value;
});

// Bounded first: the rules quote what they refuse.
export const ipv4Field = withRule(boundedText(TEXT_LIMITS.address), checkIpv4Address);
export const netmaskField = withRule(boundedText(TEXT_LIMITS.address), checkNetmask);
export const nameserversField = z.array(ipv4Field);

/**
 * A name-like text: surrounding spaces are dropped so ' Line 3 ' and 'Line 3' are the same name;
 * at most `max` characters as sent.
 */
export function trimmedText(rule: FieldRule<string>, max: number = TEXT_LIMITS.name) {
  return withRule(
    boundedText(max).transform((s) => s.trim()),
    rule,
  );
}

export const int32Field = z.int32();
export const uuidField = z.uuid();
export const dateTimeField = z.iso.datetime({ offset: true });

/** A shape whose every field `make` turned into another (it is told the field's name); names and order stay. */
export function mapFields<T extends Record<string, z.ZodType>, R extends z.ZodType>(
  shape: T,
  make: (field: T[keyof T], name: keyof T & string) => R,
): { [K in keyof T]: R } {
  return Object.fromEntries(Object.entries(shape).map(([name, field]) => [name, make(field as T[keyof T], name)])) as {
    [K in keyof T]: R;
  };
}

/** Every field of a shape made nullable: a record carries every field, null when unset. */
export function nullableFields<T extends Record<string, z.ZodType>>(shape: T): { [K in keyof T]: z.ZodNullable<T[K]> } {
  return mapFields(shape, (field) => field.nullable()) as { [K in keyof T]: z.ZodNullable<T[K]> };
}

/** A field the payload must not carry, with the reason the technician reads. */
export function forbiddenField(code: ViolationCode, message: string) {
  return anyInput<undefined>()
    .transform((input, ctx): undefined => {
      if (input !== undefined) pushViolation(ctx, input, code, message);
      return undefined;
    })
    .optional();
}
