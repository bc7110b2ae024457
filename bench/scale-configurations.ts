/**
 * The configurations of the scale bench (bench/scale.ts): an organization's configurations of
 * typical sizes, made the way an operator's bulk load would, and what the bench then draws from.
 *
 * 1. Templates: each typical flow of the interface (server/seed/typical-flows.ts, 2 to 4 devices)
 *    created once through the service, so each is complete and its record is the service's own.
 * 2. Clones, by bulk load: two statements copy the templates, round robin, to `count`
 *    configurations in all, each on its own devices of the organization (the record's id, name,
 *    times and serial numbers rewritten in SQL).
 * 3. Each clone's file content hashes (current_settings_hash) by the service's own code
 *    (refreshSettingsHashes): they are keyed with the service's content-hash key, which SQL does
 *    not hold. Then a syncId for each configured device and a history of confirmations (a firmware
 *    one for every device, a configuration one for every configured device), by bulk load.
 */
import { refreshSettingsHashes } from '../server/configurations/files';
import type { Database } from '../server';
import { loadServiceSecrets } from '../server/store/secrets';
import { DEMO_FLOWS } from '../server/seed/typical-flows';
import type { DeviceType } from '../domain';

/** Member slots per configuration: every flow has at most this many devices. */
const SLOTS = 8;
/** Where a device type falls in a block of four serial numbers (bench/scale.ts seeds type i % 4 = SRCP, WESP, EPC, NSCP). */
const TYPE_OFFSET: Record<DeviceType, number> = { SRCP: 4, WESP: 1, EPC: 2, NSCP: 3 };
const FLOWS = DEMO_FLOWS.filter((flow) => flow.region === 'NA');

/**
 * The serial number of member `slot` of configuration `k` when it is of `type`: every
 * (configuration, slot) has its own block of four serial numbers, one of each type, so no device is
 * in two configurations. Configuration k needs 4 * SLOTS * (k + 1) devices in the organization.
 */
export function memberSerial(letter: string, k: number, slot: number, type: DeviceType): string {
  return `${letter}${String(4 * (k * SLOTS + slot) + TYPE_OFFSET[type]).padStart(7, '0')}`;
}

/** The same as SQL over columns or parameters k, slot (0-based) and type. */
const memberSerialSql = (letter: string, k: string, slot: string, type: string) =>
  `'${letter}' || lpad((4 * (${k} * ${SLOTS} + ${slot}) + CASE ${type} WHEN 'SRCP' THEN 4 WHEN 'WESP' THEN 1 WHEN 'EPC' THEN 2 ELSE 3 END)::text, 7, '0')`;

/** The most configurations an organization of `devices` devices can hold here. */
export const configurationsFor = (devices: number) => Math.floor(devices / (4 * SLOTS));

export interface ConfigurationOrg {
  id: string;
  letter: string;
  key: string;
}

/** What the bench draws from: every configuration's id, and one device of each. */
export interface SeededConfigurations {
  ids: string[];
  members: string[];
}

async function api(baseUrl: string, org: ConfigurationOrg, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}/v1/organizations/${org.id}${path}`, {
    method,
    headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data: { id: string }; errors?: unknown };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json.errors)}`);
  return json.data;
}

/** The templates through the service: configurations 0 … FLOWS.length - 1. */
async function createTemplates(baseUrl: string, org: ConfigurationOrg): Promise<string[]> {
  const ids: string[] = [];
  for (const [k, flow] of FLOWS.entries()) {
    const { id } = await api(baseUrl, org, 'POST', '/configurations', { ...flow.configuration, name: `Line ${k}` });
    for (const [slot, device] of flow.devices.entries()) {
      await api(baseUrl, org, 'POST', `/configurations/${id}/devices`, {
        ...device.payload,
        serialNumber: memberSerial(org.letter, k, slot, device.deviceType),
      });
    }
    ids.push(id);
  }
  return ids;
}

/** Configurations k ≥ templates.length, each a copy of template k mod templates.length, in two statements. */
async function cloneTemplates(db: Database, org: ConfigurationOrg, templates: string[], count: number) {
  const from = templates.length;
  const params = [org.id, templates, from, count - 1];
  // A version 4 uuid (what the interface's ids are) from the organization and k.
  const idOf = `overlay(overlay(md5($1 || ':' || k) placing '4' from 13) placing '8' from 17)::uuid`;
  // Older configurations first: k seconds before now, so LastEdited orders are the clones' k order.
  await db.query(
    `INSERT INTO configurations (id, org_id, name, settings, created_at, last_edited_at, record)
     SELECT ${idOf}, $1, 'Line ' || k, t.settings, at.ts, at.ts,
       t.record || jsonb_build_object(
         'id', ${idOf}::text, 'name', 'Line ' || k,
         'createdAt', to_char(at.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'lastEditedAt', to_char(at.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'devices', (SELECT jsonb_agg(d || jsonb_build_object('serialNumber', ${memberSerialSql(org.letter, 'k', '(n - 1)', "d->>'deviceType'")}) ORDER BY n)
                     FROM jsonb_array_elements(t.record->'devices') WITH ORDINALITY AS e(d, n)))
     FROM generate_series($3::int, $4::int) AS k
     JOIN configurations t ON t.id = ($2::uuid[])[1 + k % $3::int]
     CROSS JOIN LATERAL (SELECT date_trunc('milliseconds', now()) - k * interval '1 second' AS ts) AS at`,
    params,
  );
  await db.query(
    `INSERT INTO configuration_devices (serial_number, configuration_id, org_id, settings, wifi_password_sealed, position)
     SELECT ${memberSerialSql(org.letter, 'k', 'm.slot', 'm.device_type')}, ${idOf}, $1, m.settings, m.wifi_password_sealed, m.position
     FROM generate_series($3::int, $4::int) AS k
     JOIN (SELECT cd.configuration_id, cd.settings, cd.wifi_password_sealed, cd.position, mr.device_type,
             row_number() OVER (PARTITION BY cd.configuration_id ORDER BY cd.position) - 1 AS slot
           FROM configuration_devices cd JOIN manufacturing_records mr ON mr.serial_number = cd.serial_number
           WHERE cd.configuration_id = ANY($2::uuid[])) AS m ON m.configuration_id = ($2::uuid[])[1 + k % $3::int]`,
    params,
  );
}

/** `task` over `items`, `width` at a time. */
async function eachLimited<T>(items: readonly T[], width: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/**
 * `count` configurations in `org` (templates through the service at `baseUrl`, the rest by bulk
 * load), their content hashes, syncIds and a confirmation history.
 */
export async function seedConfigurations(
  db: Database,
  baseUrl: string,
  org: ConfigurationOrg,
  count: number,
  log: (line: string) => void,
): Promise<SeededConfigurations> {
  const started = performance.now();
  const templates = await createTemplates(baseUrl, org);
  if (count > templates.length) await cloneTemplates(db, org, templates, count);
  const secrets = await loadServiceSecrets(db);
  const { rows: clones } = await db.query<{ id: string }>(
    'SELECT id FROM configurations WHERE org_id = $1 AND NOT (id = ANY($2::uuid[])) ORDER BY id',
    [org.id, templates],
  );
  await eachLimited(clones, 4, (clone) => refreshSettingsHashes(db, { secrets }, org.id, clone.id));
  await db.query(
    `INSERT INTO sync_ids (sync_id, serial_number, org_id, settings_hash, configuration_id)
     SELECT gen_random_uuid(), serial_number, org_id, current_settings_hash, configuration_id
     FROM configuration_devices WHERE org_id = $1 AND current_settings_hash IS NOT NULL
     ON CONFLICT (serial_number, settings_hash) DO NOTHING`,
    [org.id],
  );
  await db.query(
    `INSERT INTO confirmations (id, serial_number, org_id, kind, payload_hash, payload, outcome)
     SELECT gen_random_uuid(), serial_number, org_id, 'firmware', md5(serial_number),
       jsonb_build_object('success', true, 'firmwareVersion', '1.0.0', 'error', null, 'appliedAt', '2026-01-01T00:00:00.000Z'), 'deployed'
     FROM devices WHERE org_id = $1`,
    [org.id],
  );
  await db.query(
    `INSERT INTO confirmations (id, serial_number, org_id, kind, payload_hash, payload, outcome)
     SELECT gen_random_uuid(), s.serial_number, s.org_id, 'configuration', md5(s.sync_id::text),
       jsonb_build_object('success', true, 'syncId', s.sync_id, 'error', null, 'appliedAt', '2026-01-01T00:00:00.000Z'), 'deployed'
     FROM sync_ids s WHERE s.org_id = $1`,
    [org.id],
  );
  const { rows } = await db.query<{ id: string; member: string | null }>(
    `SELECT c.id, (SELECT cd.serial_number FROM configuration_devices cd WHERE cd.configuration_id = c.id ORDER BY cd.position LIMIT 1) AS member
     FROM configurations c WHERE c.org_id = $1 ORDER BY c.id`,
    [org.id],
  );
  const members = rows.flatMap((row) => (row.member === null ? [] : [row.member]));
  if (rows.length !== count || members.length !== count)
    throw new Error(`${org.id} holds ${rows.length} configurations (${members.length} with devices), not ${count}.`);
  log(`seeded ${count} configurations in ${org.id} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { ids: rows.map((row) => row.id), members };
}
