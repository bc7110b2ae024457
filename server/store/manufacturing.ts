import type { DeviceType } from '../../domain/device-types';
import type { Queryable } from '../db/database';

export interface ManufacturingRecord {
  serialNumber: string;
  deviceType: DeviceType;
  model: string;
}

/**
 * Imports (or corrects) records. A serial number that is already known keeps its registration;
 * only its type and model are updated, as the factory's export is the authority on those.
 */
export async function upsertManufacturingRecords(
  db: Queryable,
  records: readonly ManufacturingRecord[],
): Promise<{ inserted: number; updated: number }> {
  let inserted = 0;
  let updated = 0;
  for (const record of records) {
    const { rows } = await db.query<{ inserted: boolean }>(
      `INSERT INTO manufacturing_records (serial_number, device_type, model) VALUES ($1, $2, $3)
       ON CONFLICT (serial_number) DO UPDATE SET device_type = EXCLUDED.device_type, model = EXCLUDED.model
       RETURNING (xmax = 0) AS inserted`,
      [record.serialNumber, record.deviceType, record.model],
    );
    if (rows[0]?.inserted) inserted++;
    else updated++;
  }
  return { inserted, updated };
}

export async function getManufacturingRecord(
  db: Queryable,
  serialNumber: string,
): Promise<ManufacturingRecord | undefined> {
  const { rows } = await db.query<{ serial_number: string; device_type: DeviceType; model: string }>(
    'SELECT serial_number, device_type, model FROM manufacturing_records WHERE serial_number = $1',
    [serialNumber],
  );
  const row = rows[0];
  return row && { serialNumber: row.serial_number, deviceType: row.device_type, model: row.model };
}
