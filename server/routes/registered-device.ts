import type { Queryable } from '../db/database';
import { notFound } from '../http/errors';
import { foundOr } from '../http/found-or';
import { getRegisteredDevice, type RegisteredDevice } from '../store/devices';

/** The answer of every operation that names a device this organization has not registered. */
export const deviceNotFound = (serialNumber: string) =>
  notFound('DEVICE_NOT_FOUND', `Device ${serialNumber} is not registered in this organization.`, 'serialNumber');

/** The device as registered in this organization, or deviceNotFound. */
export const registeredDevice = (db: Queryable, orgId: string, serialNumber: string): Promise<RegisteredDevice> =>
  foundOr(getRegisteredDevice(db, orgId, serialNumber), () => deviceNotFound(serialNumber));
