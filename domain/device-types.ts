import { z } from 'zod';

/** The device types the interface names. Order is the order a technician sees them in. */
export const DEVICE_TYPES = ['SRCP', 'WESP', 'EPC', 'NSCP'] as const;
export const deviceTypeSchema = z.enum(DEVICE_TYPES);
export type DeviceType = z.infer<typeof deviceTypeSchema>;

/** Endpoint controllers: the types whose CAN bitrate is restricted to 250 or 500 kbit/s. */
export const ENDPOINT_CONTROLLER_TYPES: readonly DeviceType[] = ['EPC', 'NSCP'];
