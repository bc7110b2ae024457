import fc from 'fast-check';
import { describe, it } from 'vitest';
import type { z } from 'zod';
import { parsePayload } from '../../domain/parse';
import { ALL_OPERATIONS } from '../../server/routes';
import { assertFuzz, withinMemory } from './fuzz-support';
import { asQuery, nearValid } from './zod-arbitrary';

/**
 * Every body, query and path schema the service reads requests with, through the domain's
 * parsePayload as the service calls it: whatever arrives, it answers (never throws), and a refusal
 * names at least one violation with a stable code and a message.
 */

const PARTS = ['params', 'query', 'body'] as const;

function checkAnswer(schema: z.ZodType, input: unknown): void {
  const result = parsePayload(schema, input);
  if (result.ok) return;
  if (result.violations.length === 0) throw new Error('refused without a violation');
  for (const v of result.violations) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(v.code) || typeof v.message !== 'string' || v.message.length === 0) {
      throw new Error(`a violation without a stable code or message: ${JSON.stringify(v)}`);
    }
  }
}

describe('fuzz: service payload parsers', () => {
  for (const operation of ALL_OPERATIONS) {
    for (const part of PARTS) {
      const schema = operation[part] as z.ZodType | undefined;
      if (!schema) continue;
      it(`${operation.id}: ${part}`, () => {
        const inputs =
          part === 'body' ? nearValid(schema) : fc.oneof(nearValid(schema).map(asQuery), nearValid(schema));
        assertFuzz(
          fc.property(inputs, (input) => {
            withinMemory(() => checkAnswer(schema, input));
          }),
        );
      });
    }
  }
});
