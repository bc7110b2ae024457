import { type Command, InvalidArgumentError } from 'commander';
import type { Database } from '../db/database';
import {
  listApiKeys,
  MAX_ROTATION_OVERLAP_SECONDS,
  revokeApiKeys,
  rotateApiKey,
  type ApiKeyRecord,
} from '../store/api-keys';
import { getOrganization } from '../store/organizations';
import { loadServiceSecrets } from '../store/secrets';
import { CliError } from './cli-error';
import type { SecurityEventSink } from './security-log';

/** What the key commands need of the program around them. */
export interface KeyCommandContext {
  out: (text: string) => void;
  err: (text: string) => void;
  security: SecurityEventSink;
  withDatabase: <T>(work: (db: Database) => Promise<T>) => Promise<T>;
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** "0", "90s", "15m", "12h", "7d": how long a rotated key keeps working. */
export function parseOverlap(value: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(value.trim());
  const seconds = match ? Number(match[1]) * UNIT_SECONDS[match[2] || 's']! : Number.NaN;
  if (!Number.isSafeInteger(seconds) || seconds > MAX_ROTATION_OVERLAP_SECONDS) {
    throw new InvalidArgumentError(
      `Give a duration such as 0, 90s, 15m, 12h or 7d, at most 30d (${MAX_ROTATION_OVERLAP_SECONDS}s).`,
    );
  }
  return seconds;
}

/** Every key of an organization, page by page (the store's pages are those of the API). */
async function allKeys(db: Database, orgId: string): Promise<ApiKeyRecord[]> {
  const keys: ApiKeyRecord[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await listApiKeys(db, orgId, { limit: 500, offset });
    keys.push(...page);
    if (page.length < 500) return keys;
  }
}

async function requireOrganization(db: Database, orgId: string): Promise<void> {
  if (!(await getOrganization(db, orgId)))
    throw new CliError(`There is no organization "${orgId}". Create it with: org create ${orgId}`);
}

/** key list, key revoke and key rotate: taking back what `key create` gave. */
export function addKeyCommands(key: Command, ctx: KeyCommandContext): void {
  key
    .command('list')
    .description(
      "The keys of an organization: name, role, when made and last used, and when a rotated one stops. Never a key's value.",
    )
    .requiredOption('--org <orgId>', 'organization')
    .option('--json', 'print an array of { name, role, createdAt, lastUsedAt, expiresAt }')
    .action(async (options: { org: string; json?: boolean }) => {
      const keys = await ctx.withDatabase(async (db) => {
        await requireOrganization(db, options.org);
        return allKeys(db, options.org);
      });
      const rows = keys.map((record) => ({
        name: record.name,
        role: record.role,
        createdAt: record.createdAt.toISOString(),
        lastUsedAt: record.lastUsedAt?.toISOString() ?? null,
        expiresAt: record.expiresAt?.toISOString() ?? null,
      }));
      if (options.json) {
        ctx.out(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      if (rows.length === 0) {
        ctx.err(`organization ${options.org} has no keys\n`);
        return;
      }
      for (const row of rows) {
        const ends = row.expiresAt ? `  replaced, works until ${row.expiresAt}` : '';
        ctx.out(`${row.name}  ${row.role}  created ${row.createdAt}  last used ${row.lastUsedAt ?? 'never'}${ends}\n`);
      }
    });

  key
    .command('revoke')
    .description(
      'Revoke the key of that name, and any key a rotation of it left working: refused from the next request on, on every instance.',
    )
    .requiredOption('--org <orgId>', 'organization the key belongs to')
    .requiredOption('--name <keyName>', 'the key')
    .action(async (options: { org: string; name: string }) => {
      const revoked = await ctx.withDatabase(async (db) => {
        await requireOrganization(db, options.org);
        return db.transaction((tx) => revokeApiKeys(tx, options.org, options.name));
      });
      if (revoked.length === 0)
        throw new CliError(
          `Organization "${options.org}" has no key named "${options.name}" (key list --org ${options.org} shows its keys).`,
        );
      ctx.security(
        { event: 'key-revoked', orgId: options.org, keyName: options.name, role: revoked[0]!.role },
        'API key revoked',
      );
      ctx.out(
        `revoked ${options.name} of organization ${options.org}${revoked.length > 1 ? ` (${revoked.length} keys: the current one and those a rotation left working)` : ''}\n`,
      );
    });

  key
    .command('rotate')
    .description(
      'A new key under the same name and role (printed, only the key); the old one keeps working for --old-valid-for, then is refused.',
    )
    .requiredOption('--org <orgId>', 'organization the key belongs to')
    .requiredOption('--name <keyName>', 'the key')
    .requiredOption(
      '--old-valid-for <duration>',
      'how long the old key keeps working: 0 (stops now), 90s, 15m, 12h, 7d (at most 30d)',
      parseOverlap,
    )
    .action(async (options: { org: string; name: string; oldValidFor: number }) => {
      const until = new Date(Date.now() + options.oldValidFor * 1000);
      const outcome = await ctx.withDatabase(async (db) => {
        await requireOrganization(db, options.org);
        const secrets = await loadServiceSecrets(db);
        return db.transaction((tx) =>
          rotateApiKey(tx, secrets.box, { orgId: options.org, name: options.name, oldValidUntil: until }),
        );
      });
      if (outcome === 'not-found')
        throw new CliError(
          `Organization "${options.org}" has no key named "${options.name}" (key list --org ${options.org} shows its keys).`,
        );
      ctx.security(
        { event: 'key-rotated', orgId: options.org, keyName: options.name, role: outcome.record.role },
        `API key rotated; the old key works until ${until.toISOString()}`,
      );
      ctx.out(`${outcome.key}\n`);
      ctx.err(
        `the old key ${options.name} works until ${until.toISOString()}; the line above is its replacement (role ${outcome.record.role})\n`,
      );
    });
}
