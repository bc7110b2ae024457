import { deriveDeployStatus, type DeviceRecord, type DeviceType } from '../../domain';
import type { Queryable } from '../db/database';
import { likePattern } from '../http/query';

export interface RegisteredDevice {
  serialNumber: string;
  orgId: string;
  deviceType: DeviceType;
  model: string;
  /** The configuration the device is in, if any. */
  configurationId: string | null;
}

/** The device if it is registered in this organization (a device of another one reads as absent). */
export async function getRegisteredDevice(
  db: Queryable,
  orgId: string,
  serialNumber: string,
): Promise<RegisteredDevice | undefined> {
  const { rows } = await db.query<{
    serial_number: string;
    org_id: string;
    device_type: DeviceType;
    model: string;
    configuration_id: string | null;
  }>(
    `SELECT d.serial_number, d.org_id, m.device_type, m.model, cd.configuration_id
     FROM devices d JOIN manufacturing_records m ON m.serial_number = d.serial_number
     LEFT JOIN configuration_devices cd ON cd.serial_number = d.serial_number
     WHERE d.serial_number = $1 AND d.org_id = $2`,
    [serialNumber, orgId],
  );
  const row = rows[0];
  return (
    row && {
      serialNumber: row.serial_number,
      orgId: row.org_id,
      deviceType: row.device_type,
      model: row.model,
      configurationId: row.configuration_id,
    }
  );
}

/** Which organization holds the serial number, if any (to tell "registered elsewhere" apart). */
export async function registrationOf(db: Queryable, serialNumber: string): Promise<string | undefined> {
  const { rows } = await db.query<{ org_id: string }>('SELECT org_id FROM devices WHERE serial_number = $1', [
    serialNumber,
  ]);
  return rows[0]?.org_id;
}

export async function insertDevice(
  db: Queryable,
  input: { serialNumber: string; orgId: string; name: string; image: string | null },
): Promise<void> {
  await db.query('INSERT INTO devices (serial_number, org_id, name, image) VALUES ($1, $2, $3, $4)', [
    input.serialNumber,
    input.orgId,
    input.name,
    input.image,
  ]);
}

/** `image`: a new image, null to delete it, undefined to keep it. */
export async function updateDevice(
  db: Queryable,
  input: { serialNumber: string; name: string | undefined; image: string | null | undefined },
): Promise<void> {
  await db.query(
    `UPDATE devices SET name = COALESCE($2, name), image = CASE WHEN $3::boolean THEN $4 ELSE image END, updated_at = clock_timestamp()
     WHERE serial_number = $1`,
    [input.serialNumber, input.name ?? null, input.image !== undefined, input.image ?? null],
  );
}

/** Why a device could not be released, or that it was. */
export type ReleaseOutcome =
  | { released: true }
  | { released: false; reason: 'not-registered' }
  | { released: false; reason: 'in-configuration'; configurationId: string; configurationName: string };

/**
 * Gives a device its organization holds back to the manufacturing records, so that another
 * organization can register it (a resold device). Its name, image, applies, confirmations and the
 * syncIds issued for it go with it: they are the organization's history, and syncIds and
 * confirmations are unique per device, so left behind they would answer the next holder's
 * downloads and replays. A device in a configuration stays: the configuration would change under
 * its owner's feet.
 */
export async function releaseDevice(db: Queryable, orgId: string, serialNumber: string): Promise<ReleaseOutcome> {
  const { rows } = await db.query<{ configuration_id: string | null; configuration_name: string | null }>(
    `SELECT cd.configuration_id, c.name AS configuration_name FROM devices d
     LEFT JOIN configuration_devices cd ON cd.serial_number = d.serial_number
     LEFT JOIN configurations c ON c.id = cd.configuration_id
     WHERE d.serial_number = $1 AND d.org_id = $2`,
    [serialNumber, orgId],
  );
  const row = rows[0];
  if (!row) return { released: false, reason: 'not-registered' };
  if (row.configuration_id !== null) {
    return {
      released: false,
      reason: 'in-configuration',
      configurationId: row.configuration_id,
      configurationName: row.configuration_name ?? '',
    };
  }
  await db.query('DELETE FROM sync_ids WHERE serial_number = $1 AND org_id = $2', [serialNumber, orgId]);
  await db.query('DELETE FROM confirmations WHERE serial_number = $1 AND org_id = $2', [serialNumber, orgId]);
  await db.query('DELETE FROM devices WHERE serial_number = $1 AND org_id = $2', [serialNumber, orgId]);
  return { released: true };
}

interface RecordRow {
  serial_number: string;
  name: string;
  device_type: DeviceType;
  model: string;
  image: string | null;
  firmware_version: string | null;
  last_firmware_apply: DeviceRecord['lastFirmwareApply'];
  last_configuration_apply: DeviceRecord['lastConfigurationApply'];
  deployed_sync_id: string | null;
  registered_at: Date;
  configuration_id: string | null;
  configuration_name: string | null;
  current_sync_id: string | null;
}

const SELECT_RECORDS = `
  SELECT d.serial_number, d.name, m.device_type, m.model, d.image, d.firmware_version, d.last_firmware_apply,
    d.last_configuration_apply, d.deployed_sync_id, d.registered_at, cd.configuration_id, c.name AS configuration_name,
    s.sync_id AS current_sync_id
  FROM devices d
  JOIN manufacturing_records m ON m.serial_number = d.serial_number
  LEFT JOIN configuration_devices cd ON cd.serial_number = d.serial_number
  LEFT JOIN configurations c ON c.id = cd.configuration_id
  LEFT JOIN sync_ids s ON s.serial_number = d.serial_number AND s.settings_hash = cd.current_settings_hash`;

/**
 * Stands for "the file served now has a syncId that was not issued yet" (the configuration changed
 * since the last download, or is incomplete): any earlier apply is then Outdated.
 */
const NOT_YET_ISSUED = 'not-yet-issued';

function toRecord(row: RecordRow): DeviceRecord {
  const currentSyncId = row.configuration_id === null ? null : (row.current_sync_id ?? NOT_YET_ISSUED);
  return {
    serialNumber: row.serial_number,
    name: row.name,
    deviceType: row.device_type,
    model: row.model,
    hasImage: row.image !== null,
    deviceImage: row.image,
    configurationId: row.configuration_id,
    configurationName: row.configuration_name,
    firmwareVersion: row.firmware_version,
    lastFirmwareApply: row.last_firmware_apply,
    deployStatus: deriveDeployStatus({ lastConfigurationApply: row.last_configuration_apply, currentSyncId }),
    deployedSyncId: row.deployed_sync_id,
    currentSyncId: row.configuration_id === null ? null : row.current_sync_id,
    lastConfigurationApply: row.last_configuration_apply,
    registeredAt: row.registered_at.toISOString(),
  };
}

export async function getDeviceRecord(
  db: Queryable,
  orgId: string,
  serialNumber: string,
): Promise<DeviceRecord | undefined> {
  const { rows } = await db.query<RecordRow>(`${SELECT_RECORDS} WHERE d.org_id = $1 AND d.serial_number = $2`, [
    orgId,
    serialNumber,
  ]);
  return rows[0] && toRecord(rows[0]);
}

export interface DeviceListQuery {
  search: string | undefined;
  serial: string | undefined;
  configurableOnly: boolean;
  limit: number;
  page: number;
}

type DevicePage = { items: DeviceRecord[]; totalCount: number };

/**
 * One page of the organization's devices. What a page costs grows with the page, not with the
 * organization (docs/decisions.md "The device list pages from buckets"):
 * - the plain list (and configurableOnly) seeks from the bucket that holds the page's first row;
 * - a search that starts some serial number of the organization reads that index range only;
 * - any other search (name, model, type, or a serial number from inside) reads the trigram
 *   indexes of migration 16 where the database has them, else every device of the organization;
 *   a term that many devices hold (a type, a common model) still reads and counts all of those
 *   (docs/performance.md, "Search by name at a million devices").
 */
export async function listDeviceRecords(db: Queryable, orgId: string, query: DeviceListQuery): Promise<DevicePage> {
  const offset = (query.page - 1) * query.limit;
  if (query.serial === undefined && query.search === undefined)
    return pageFromBuckets(db, orgId, query.configurableOnly, query.limit, offset);
  if (query.serial === undefined && query.search !== undefined) {
    const bySerial = await pageBySerialPrefix(db, orgId, query.search, query.configurableOnly, query.limit, offset);
    if (bySerial) return bySerial;
  }
  return pageByFilter(db, orgId, query, offset);
}

interface BucketedRow extends RecordRow {
  total_count: string;
}

/**
 * The bucket whose devices (or unconfigured devices) before it are at most `offset` holds the
 * page's first row: one statement finds it, seeks from its first serial number and skips less than
 * a bucket (migration 13 keeps buckets at most 1024 devices), so every page is read in one snapshot.
 */
async function pageFromBuckets(
  db: Queryable,
  orgId: string,
  configurableOnly: boolean,
  limit: number,
  offset: number,
): Promise<DevicePage> {
  const counted = configurableOnly ? 'unconfigured' : 'devices';
  // The bound on pc is implied by the join, but stated it starts the planner's merge anti join at
  // the bucket: without it every configured device before the bucket is read (168 ms with 23,000
  // configured devices, docs/performance.md).
  const unconfiguredOnly = configurableOnly
    ? 'AND NOT EXISTS (SELECT 1 FROM configuration_devices pc WHERE pc.serial_number = p.serial_number AND pc.serial_number >= (SELECT first_serial FROM bucket))'
    : '';
  const bucket = `SELECT first_serial, before, total FROM (
      SELECT first_serial, sum(${counted}) OVER (ORDER BY first_serial) - ${counted} AS before, sum(${counted}) OVER () AS total
      FROM device_list_buckets WHERE org_id = $1) AS b
    WHERE before <= $2 ORDER BY first_serial DESC LIMIT 1`;
  const { rows } = await db.query<BucketedRow>(
    `WITH bucket AS (${bucket}),
     page AS (
       SELECT p.serial_number FROM devices p
       WHERE p.org_id = $1 AND p.serial_number >= (SELECT first_serial FROM bucket) ${unconfiguredOnly}
       ORDER BY p.serial_number LIMIT $3 OFFSET (SELECT $2 - before FROM bucket))
     ${SELECT_RECORDS}, bucket WHERE d.org_id = $1 AND d.serial_number IN (SELECT serial_number FROM page) ORDER BY d.serial_number`.replace(
      'SELECT d.serial_number,',
      'SELECT bucket.total AS total_count, d.serial_number,',
    ),
    [orgId, offset, limit],
  );
  if (rows[0]) return { items: rows.map(toRecord), totalCount: Number(rows[0].total_count) };
  // Past the end (or no devices): the total alone.
  const total = await db.query<{ n: string | null }>(
    `SELECT sum(${counted}) AS n FROM device_list_buckets WHERE org_id = $1`,
    [orgId],
  );
  return { items: [], totalCount: Number(total.rows[0]?.n ?? 0) };
}

const SERIAL_PREFIX = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The upper-case prefix's range in byte order: [prefix, prefix with its last byte raised). */
function prefixRange(prefix: string): [string, string] {
  const upper = prefix.toUpperCase();
  return [upper, `${upper.slice(0, -1)}${String.fromCharCode(upper.charCodeAt(upper.length - 1) + 1)}`];
}

/**
 * A search that starts some serial number of the organization (case aside) finds the devices
 * whose serial number starts with it, through devices_org_serial_upper (migration 13); undefined
 * when it starts none, for the search over every field to take it.
 */
async function pageBySerialPrefix(
  db: Queryable,
  orgId: string,
  search: string,
  configurableOnly: boolean,
  limit: number,
  offset: number,
): Promise<DevicePage | undefined> {
  if (!SERIAL_PREFIX.test(search)) return undefined;
  const [from, to] = prefixRange(search);
  const unconfiguredOnly = configurableOnly
    ? 'AND NOT EXISTS (SELECT 1 FROM configuration_devices pc WHERE pc.serial_number = p.serial_number)'
    : '';
  const matches = `FROM devices p WHERE p.org_id = $1 AND upper(p.serial_number) COLLATE "C" >= $2 AND upper(p.serial_number) COLLATE "C" < $3 ${unconfiguredOnly}`;
  const { rows } = await db.query<RecordRow>(
    `WITH page AS (SELECT p.serial_number ${matches} ORDER BY upper(p.serial_number) COLLATE "C", p.serial_number COLLATE "C" LIMIT $4 OFFSET $5)
     ${SELECT_RECORDS} WHERE d.org_id = $1 AND d.serial_number IN (SELECT serial_number FROM page)
     ORDER BY upper(d.serial_number) COLLATE "C", d.serial_number COLLATE "C"`,
    [orgId, from, to, limit, offset],
  );
  if (rows.length < limit && rows.length > 0) return { items: rows.map(toRecord), totalCount: offset + rows.length };
  const count = await db.query<{ n: number }>(`SELECT count(*)::int AS n ${matches}`, [orgId, from, to]);
  const totalCount = count.rows[0]?.n ?? 0;
  if (totalCount === 0 && !configurableOnly) return undefined;
  if (totalCount === 0) {
    // Unconfigured aside, does the prefix start any serial number at all?
    const any = await db.query(
      `SELECT 1 FROM devices p WHERE p.org_id = $1 AND upper(p.serial_number) COLLATE "C" >= $2 AND upper(p.serial_number) COLLATE "C" < $3 LIMIT 1`,
      [orgId, from, to],
    );
    if (any.rows.length === 0) return undefined;
  }
  return { items: rows.map(toRecord), totalCount };
}

/**
 * The organization's devices a search finds anywhere in name, serial number, model or type, as one
 * set of serial numbers `p`. The filter is split per table so that each part can use its own
 * trigram indexes (migration 16): name or serial number on devices, model or type on
 * manufacturing_records, joined by UNION. One OR across both tables' columns is planned as a join
 * of two full reads whatever the indexes (docs/performance.md, "Search by name at a million
 * devices"). Without a search: the organization's devices.
 */
function candidateDevices(searching: boolean): string {
  // $2 (null here) named all the same: a parameter the statement never mentions has no type.
  if (!searching) return 'SELECT serial_number FROM devices WHERE org_id = $1 AND $2::text IS NULL';
  // lower(…): the indexed expressions (migration 16 says why); ILIKE folds case all the same.
  return `SELECT serial_number FROM devices WHERE org_id = $1 AND (lower(name) ILIKE $2 OR lower(serial_number) ILIKE $2)
    UNION
    SELECT d.serial_number FROM manufacturing_records m JOIN devices d ON d.serial_number = m.serial_number
    WHERE d.org_id = $1 AND (lower(m.model) ILIKE $2 OR lower(m.device_type) ILIKE $2)`;
}

/** Search over name, serial number, model and type anywhere in them, or one serial number: a filter over the organization. */
async function pageByFilter(db: Queryable, orgId: string, query: DeviceListQuery, offset: number): Promise<DevicePage> {
  const searching = query.search !== undefined;
  // $2 is the search's LIKE pattern, the wildcards typed in the search escaped.
  const matches = `FROM (${candidateDevices(searching)}) AS p
    WHERE ($3::text IS NULL OR p.serial_number = $3)
      AND (NOT $4::boolean OR NOT EXISTS (SELECT 1 FROM configuration_devices pc WHERE pc.serial_number = p.serial_number))`;
  const params = [
    orgId,
    query.search === undefined ? null : likePattern(query.search),
    query.serial ?? null,
    query.configurableOnly,
  ];
  const { rows } = await db.query<RecordRow>(
    `WITH page AS (SELECT p.serial_number ${matches} ORDER BY p.serial_number LIMIT $5 OFFSET $6)
     ${SELECT_RECORDS} WHERE d.org_id = $1 AND d.serial_number IN (SELECT serial_number FROM page) ORDER BY d.serial_number`,
    [...params, query.limit, offset],
  );
  // A short page that holds something (or the first page) shows where the list ends: no count needed.
  if (rows.length < query.limit && (rows.length > 0 || offset === 0))
    return { items: rows.map(toRecord), totalCount: offset + rows.length };
  const count = await db.query<{ n: number }>(`SELECT count(*)::int AS n ${matches}`, params);
  return { items: rows.map(toRecord), totalCount: count.rows[0]?.n ?? 0 };
}

/** Records a firmware confirmation unless a later one (by apply time) is already recorded. */
export async function recordFirmwareApply(
  db: Queryable,
  serialNumber: string,
  apply: { success: boolean; firmwareVersion: string | null; error: string | null; appliedAt: string },
): Promise<boolean> {
  const result = await db.query(
    `UPDATE devices SET last_firmware_apply = $2::jsonb,
       firmware_version = CASE WHEN $3::boolean THEN $4 ELSE firmware_version END, updated_at = clock_timestamp()
     WHERE serial_number = $1
       AND (last_firmware_apply IS NULL OR (last_firmware_apply->>'appliedAt')::timestamptz <= $5::timestamptz)`,
    [serialNumber, JSON.stringify(apply), apply.success, apply.firmwareVersion, apply.appliedAt],
  );
  return result.rowCount > 0;
}

/** Records a configuration confirmation unless a later one (by apply time) is already recorded. */
export async function recordConfigurationApply(
  db: Queryable,
  serialNumber: string,
  apply: { success: boolean; syncId: string; error: string | null; appliedAt: string },
): Promise<boolean> {
  const result = await db.query(
    `UPDATE devices SET last_configuration_apply = $2::jsonb,
       deployed_sync_id = CASE WHEN $3::boolean THEN $4::uuid ELSE deployed_sync_id END, updated_at = clock_timestamp()
     WHERE serial_number = $1
       AND (last_configuration_apply IS NULL OR (last_configuration_apply->>'appliedAt')::timestamptz <= $5::timestamptz)`,
    [serialNumber, JSON.stringify(apply), apply.success, apply.syncId, apply.appliedAt],
  );
  return result.rowCount > 0;
}
