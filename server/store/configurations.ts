import type {
  ConfigurationDeviceSettings,
  ConfigurationSettings,
  ConfigurationSortOption,
  DeviceType,
} from '../../domain';
import type { Queryable } from '../db/database';
import { likePattern } from '../http/query';
import { compactObject } from './json';

/** A device of a configuration as stored: canonical settings without the Wifi password (sealed apart). */
export interface StoredMember {
  serialNumber: string;
  deviceType: DeviceType;
  settings: ConfigurationDeviceSettings;
  wifiPasswordSet: boolean;
  position: number;
  currentSettingsHash: string | null;
}

export interface StoredConfiguration {
  id: string;
  orgId: string;
  name: string;
  /** The canonical settings other than the name: only the keys that are set. */
  settings: ConfigurationSettings;
  createdAt: Date;
  lastEditedAt: Date;
  members: StoredMember[];
}

interface Row {
  id: string;
  org_id: string;
  name: string;
  settings: ConfigurationSettings;
  created_at: Date;
  last_edited_at: Date;
}

interface MemberRow {
  serial_number: string;
  device_type: DeviceType;
  settings: ConfigurationDeviceSettings;
  wifi_password_set: boolean;
  position: number;
  current_settings_hash: string | null;
}

/** The configuration if it exists in this organization; another organization's id reads as absent. */
export async function getConfiguration(
  db: Queryable,
  orgId: string,
  id: string,
): Promise<StoredConfiguration | undefined> {
  // Two plain queries: PGlite plans and runs them faster than one that aggregates the devices.
  const { rows } = await db.query<Row>(
    'SELECT id, org_id, name, settings, created_at, last_edited_at FROM configurations WHERE id = $1 AND org_id = $2',
    [id, orgId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const members = await db.query<MemberRow>(
    `SELECT cd.serial_number, m.device_type, cd.settings, cd.wifi_password_sealed IS NOT NULL AS wifi_password_set, cd.position,
       cd.current_settings_hash
     FROM configuration_devices cd JOIN manufacturing_records m ON m.serial_number = cd.serial_number
     WHERE cd.configuration_id = $1 ORDER BY cd.position`,
    [id],
  );
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    settings: row.settings,
    createdAt: row.created_at,
    lastEditedAt: row.last_edited_at,
    members: members.rows.map((m) => ({
      serialNumber: m.serial_number,
      deviceType: m.device_type,
      settings: m.settings,
      wifiPasswordSet: m.wifi_password_set,
      position: m.position,
      currentSettingsHash: m.current_settings_hash,
    })),
  };
}

const ORDER_BY: Record<ConfigurationSortOption, string> = {
  LastEditedASC: 'c.last_edited_at ASC, c.id ASC',
  LastEditedDESC: 'c.last_edited_at DESC, c.id DESC',
  ConfigNameASC: 'lower(c.name) ASC, c.id ASC',
  ConfigNameDESC: 'lower(c.name) DESC, c.id DESC',
};

function storedSettings(settings: ConfigurationSettings): string {
  const { name: _name, ...rest } = settings;
  return JSON.stringify(compactObject(rest));
}

export async function insertConfiguration(
  db: Queryable,
  input: { id: string; orgId: string; name: string; settings: ConfigurationSettings },
): Promise<void> {
  await db.query('INSERT INTO configurations (id, org_id, name, settings) VALUES ($1, $2, $3, $4::jsonb)', [
    input.id,
    input.orgId,
    input.name,
    storedSettings(input.settings),
  ]);
}

export async function updateConfiguration(
  db: Queryable,
  id: string,
  name: string,
  settings: ConfigurationSettings,
): Promise<void> {
  await db.query(
    'UPDATE configurations SET name = $2, settings = $3::jsonb, last_edited_at = clock_timestamp() WHERE id = $1',
    [id, name, storedSettings(settings)],
  );
}

/** Marks the configuration edited (its devices changed). */
export async function touchConfiguration(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE configurations SET last_edited_at = clock_timestamp() WHERE id = $1', [id]);
}

export async function deleteConfiguration(db: Queryable, orgId: string, id: string): Promise<boolean> {
  const result = await db.query('DELETE FROM configurations WHERE id = $1 AND org_id = $2', [id, orgId]);
  return result.rowCount > 0;
}

/** The device's own settings: not its identity or type (joined from other tables), not the password (sealed apart). */
function storedMemberSettings(settings: ConfigurationDeviceSettings & { deviceType?: unknown }): string {
  const {
    serialNumber: _serial,
    deviceType: _type,
    wifiPassword: _password,
    wifiPasswordSet: _set,
    ...rest
  } = settings;
  return JSON.stringify(compactObject(rest));
}

export async function insertMember(
  db: Queryable,
  input: {
    configurationId: string;
    orgId: string;
    serialNumber: string;
    settings: ConfigurationDeviceSettings;
    wifiPasswordSealed: Uint8Array | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO configuration_devices (serial_number, configuration_id, org_id, settings, wifi_password_sealed, position)
     VALUES ($1, $2, $3, $4::jsonb, $5,
       (SELECT COALESCE(max(position), 0) + 1 FROM configuration_devices WHERE configuration_id = $2))`,
    [
      input.serialNumber,
      input.configurationId,
      input.orgId,
      storedMemberSettings(input.settings),
      input.wifiPasswordSealed,
    ],
  );
}

/** `wifiPasswordSealed`: a new sealed password, null to clear it, undefined to keep it. */
export async function updateMember(
  db: Queryable,
  input: {
    configurationId: string;
    serialNumber: string;
    settings: ConfigurationDeviceSettings;
    wifiPasswordSealed: Uint8Array | null | undefined;
  },
): Promise<void> {
  await db.query(
    `UPDATE configuration_devices SET settings = $3::jsonb, updated_at = clock_timestamp(),
       wifi_password_sealed = CASE WHEN $4::boolean THEN $5::bytea ELSE wifi_password_sealed END
     WHERE configuration_id = $1 AND serial_number = $2`,
    [
      input.configurationId,
      input.serialNumber,
      storedMemberSettings(input.settings),
      input.wifiPasswordSealed !== undefined,
      input.wifiPasswordSealed ?? null,
    ],
  );
}

export async function deleteMember(db: Queryable, configurationId: string, serialNumber: string): Promise<void> {
  await db.query('DELETE FROM configuration_devices WHERE configuration_id = $1 AND serial_number = $2', [
    configurationId,
    serialNumber,
  ]);
}

export async function sealedWifiPasswords(db: Queryable, configurationId: string): Promise<Map<string, Uint8Array>> {
  const { rows } = await db.query<{ serial_number: string; wifi_password_sealed: Uint8Array }>(
    'SELECT serial_number, wifi_password_sealed FROM configuration_devices WHERE configuration_id = $1 AND wifi_password_sealed IS NOT NULL',
    [configurationId],
  );
  return new Map(rows.map((row) => [row.serial_number, row.wifi_password_sealed]));
}

export async function setCurrentSettingsHashes(
  db: Queryable,
  configurationId: string,
  hashes: ReadonlyMap<string, string | null>,
): Promise<void> {
  const serials = [...hashes.keys()];
  if (serials.length === 0) return;
  await db.query(
    `UPDATE configuration_devices cd SET current_settings_hash = h.hash
     FROM unnest($2::text[], $3::text[]) AS h(serial_number, hash)
     WHERE cd.configuration_id = $1 AND cd.serial_number = h.serial_number`,
    [configurationId, serials, serials.map((serial) => hashes.get(serial) ?? null)],
  );
}

/** Keeps the record a read returns beside the configuration (see migration 2). */
export async function saveConfigurationRecord(db: Queryable, id: string, record: unknown): Promise<void> {
  await db.query('UPDATE configurations SET record = $2::jsonb WHERE id = $1', [id, JSON.stringify(record)]);
}

/**
 * The kept record as JSON text (reads send it on as is: parsing and re-serialising it would cost
 * more than the query); `null` when the configuration exists but its record was never kept.
 */
export async function getConfigurationRecordText(
  db: Queryable,
  orgId: string,
  id: string,
): Promise<string | null | undefined> {
  const { rows } = await db.query<{ record: string | null }>(
    'SELECT record::text AS record FROM configurations WHERE id = $1 AND org_id = $2',
    [id, orgId],
  );
  return rows[0] === undefined ? undefined : rows[0].record;
}

/**
 * A page of the configuration list. The page's ids are found first, on the index in the list's
 * order (migration 14): the rows before the page are skipped there, without reading their records;
 * then only the page's records are read. A record is a few kilobytes of JSON: turning every
 * record before a deep page into text took 280 ms at 10,000 configurations (docs/performance.md).
 */
export async function listConfigurationRecordTexts(
  db: Queryable,
  orgId: string,
  query: { search: string | undefined; sort: ConfigurationSortOption; limit: number; page: number },
): Promise<{ items: { id: string; record: string | null }[]; totalCount: number }> {
  const pattern = query.search === undefined ? null : likePattern(query.search);
  const offset = (query.page - 1) * query.limit;
  const { rows } = await db.query<{ id: string; record: string | null }>(
    `SELECT c.id, c.record::text AS record
     FROM (SELECT c.id FROM configurations c WHERE c.org_id = $1 AND ($2::text IS NULL OR c.name ILIKE $2)
           ORDER BY ${ORDER_BY[query.sort]} LIMIT $3 OFFSET $4) AS page
     JOIN configurations c ON c.id = page.id
     ORDER BY ${ORDER_BY[query.sort]}`,
    [orgId, pattern, query.limit, offset],
  );
  // The total only needs its own query when the page does not show where the list ends.
  const totalCount =
    rows.length > 0 && rows.length < query.limit ? offset + rows.length : await countConfigurations(db, orgId, pattern);
  return { items: rows, totalCount };
}

/** How many configurations match: without a search, the count kept with them (migration 15); with one, counted. */
async function countConfigurations(db: Queryable, orgId: string, pattern: string | null): Promise<number> {
  const { rows } =
    pattern === null
      ? await db.query<{ n: number }>('SELECT configurations AS n FROM configuration_counts WHERE org_id = $1', [orgId])
      : await db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM configurations c WHERE c.org_id = $1 AND c.name ILIKE $2',
          [orgId, pattern],
        );
  return rows[0]?.n ?? 0;
}
