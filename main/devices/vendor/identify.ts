import { DEVICE_TYPES, type DeviceType } from '../../../domain/device-types';
import type { VendorFamily } from '../../../domain/vendor/running-values';
import { EPC_PATH, FRC_PATH } from '../../../protocol/vendor';
import { DeviceProtocolError, DeviceVerificationError } from '../errors';
import type { DeviceSession } from '../session';
import { textOf, vendorGet, type VendorRequestOptions } from './requests';

/** Who a vendor device is, from its cfg/setup/… and info/… resources. */
export interface VendorIdentity {
  family: VendorFamily;
  serialNumber: string;
  firmwareVersion: string;
  /** Our name for its type: EPC for the EPC; for the FRC family, see frcDeviceType. */
  deviceType: DeviceType;
  /** What a person reads: 'SRC Pro', 'NSC', 'EPC'. */
  model: string;
  /**
   * How the type was told: by the transport (the EPC), by whoever knew it (`knownType`), by a
   * serial number starting with a type, or taken as SRC Pro for want of anything (`guessed`).
   */
  typeFrom: 'transport' | 'known' | 'serial prefix' | 'guessed';
}

const MODEL: Record<DeviceType, string> = { SRCP: 'SRC Pro', NSCP: 'NSC', WESP: 'WESP', EPC: 'EPC' };

/**
 * The FRC family does not say which product it is: the vendor's tool never asks, and its newer
 * CLI's way is not public (vendor spec §1.3). Ours: the type given by whoever knows it (a USB
 * descriptor, the service's record of the serial number), else the type a serial number starts
 * with (SRCP…, NSCP…, WESP…, as the manufacturing records of our organizations name them), else
 * SRCP, the family's common member. docs/vendor-devices.md keeps this among the inferred points.
 */
export function frcDeviceType(serialNumber: string, known?: DeviceType): DeviceType {
  return known ?? frcTypeOfSerial(serialNumber) ?? 'SRCP';
}

/**
 * The FRC type a serial number starts with, if any. The vendor's own serial numbers are 1 to 8
 * letters and digits (vendor spec §9, e.g. `WBJFU8CN`) and carry no type: for those only a record
 * of the serial number (the service's manufacturing record) tells an NSC from an SRC Pro.
 */
export function frcTypeOfSerial(serialNumber: string): DeviceType | undefined {
  return DEVICE_TYPES.find((type) => type !== 'EPC' && serialNumber.toUpperCase().startsWith(type));
}

/**
 * The type a device of the vendor's FRC family takes from the service's record of its serial
 * number: an SRC Pro or an NSC, which the device cannot tell apart. Undefined when the record says
 * nothing it may take (no record, or a type of another family: an EPC is told by its transport).
 */
export function frcTypeFromRecord(identified: string, recorded: string | undefined): 'SRCP' | 'NSCP' | undefined {
  const frc = (type: string | undefined): type is 'SRCP' | 'NSCP' => type === 'SRCP' || type === 'NSCP';
  return frc(identified) && frc(recorded) ? recorded : undefined;
}

export function modelOf(type: DeviceType): string {
  return MODEL[type];
}

async function text(session: DeviceSession, path: string, options: VendorRequestOptions): Promise<string> {
  return textOf(await vendorGet(session, path, { ...options, step: `${path} request` })).trim();
}

/** EPC answers may be JSON (vendor spec §5.6 infers it for info/fw/version): a JSON string is unwrapped. */
function unwrapJsonText(value: string): string {
  if (!value.startsWith('"')) return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'string' ? parsed : value;
  } catch {
    return value;
  }
}

export interface VendorIdentifyOptions extends VendorRequestOptions {
  /** The FRC device's type when something other than the device knows it. */
  knownType?: DeviceType;
}

/**
 * GET the serial number and the firmware version, as the vendor's tool does (cfg/setup/serialNumber,
 * cfg/setup/fwVersion on the FRC; info/fw/version on the EPC). Errors name the device by serial
 * number from then on, and another device answering where one was expected is refused.
 */
export async function identifyVendor(
  session: DeviceSession,
  family: VendorFamily,
  options: VendorIdentifyOptions = {},
): Promise<VendorIdentity> {
  const serialNumber = unwrapJsonText(await text(session, FRC_PATH.serialNumber, options));
  if (serialNumber === '')
    throw new DeviceProtocolError(session.context(`${FRC_PATH.serialNumber} request`), 'an empty serial number');
  const firmwareVersion = unwrapJsonText(
    await text(session, family === 'EPC' ? EPC_PATH.fwVersion : FRC_PATH.fwVersion, options),
  );
  if (session.expectedSerialNumber !== undefined && serialNumber !== session.expectedSerialNumber) {
    throw new DeviceVerificationError(
      'DEVICE_MISMATCH',
      session.context('identify'),
      `device ${serialNumber} answered where ${session.expectedSerialNumber} was expected`,
    );
  }
  session.expectedSerialNumber = serialNumber;
  session.engine.deviceName = serialNumber;
  const deviceType = family === 'EPC' ? 'EPC' : frcDeviceType(serialNumber, options.knownType);
  const typeFrom =
    family === 'EPC'
      ? 'transport'
      : options.knownType
        ? 'known'
        : frcTypeOfSerial(serialNumber)
          ? 'serial prefix'
          : 'guessed';
  return { family, serialNumber, firmwareVersion, deviceType, model: modelOf(deviceType), typeFrom };
}
