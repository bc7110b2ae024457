import { InvalidArgumentError } from 'commander';
import { parseFraction, parseStall, type FaultOptions } from '../faults';
import type { SimulatedDeviceOptions } from '../options';
import { parseParameterDrift } from '../device/parameters';
import { DEVICE_PROTOCOLS, type DeviceProtocol } from '../options';
import { parseVendorDrift } from '../vendor/drift';

export interface CliFlags {
  type?: string;
  serial?: string;
  protocol?: DeviceProtocol;
  model?: string;
  firmwareVersion?: string;
  link: string;
  fleet?: string;
  stateDir?: string;
  publicKey?: string;
  /** Release public key files, in the order given. */
  releaseKeyPub?: string[];
  serviceUrl?: string;
  baud?: number;
  bleMtu?: number;
  bleInterval?: number;
  blePackets?: number;
  udpRate?: number;
  udpLatency?: number;
  flashRate?: number;
  maxBlockSize?: number;
  maxInFlight?: number;
  rebootMs?: number;
  applyMs?: number;
  drop?: number;
  corrupt?: number;
  pullAt?: number;
  replugAfter?: number;
  stall?: { ms: number; atOffset: number };
  powerCycleDuringApply?: boolean;
  faultParamDrift?: string;
  seed?: number;
  pressEstopAfterMs?: number;
}

export function integer(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) throw new InvalidArgumentError(`"${text}" is not a whole number.`);
  return value;
}

/** Commander's collector for a flag that may be repeated. */
export function repeated(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function positiveNumber(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError(`"${text}" is not a positive number.`);
  return value;
}

export function nonNegativeNumber(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0)
    throw new InvalidArgumentError(`"${text}" is not a number of zero or more.`);
  return value;
}

export function fraction(text: string): number {
  try {
    return parseFraction(text, 'the flag');
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

export function stall(text: string): { ms: number; atOffset: number } {
  try {
    return parseStall(text);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

export function paramDrift(text: string): string {
  try {
    // A vendor device's settings are cfg/… paths (simulator/vendor/drift.ts); ours are dotted keys.
    if (text.includes('/')) parseVendorDrift(text);
    else parseParameterDrift(text);
    return text;
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

export function protocol(text: string): DeviceProtocol {
  if (!(DEVICE_PROTOCOLS as readonly string[]).includes(text))
    throw new InvalidArgumentError(`--protocol is one of ${DEVICE_PROTOCOLS.join(', ')}, not "${text}".`);
  return text as DeviceProtocol;
}

function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function nonEmpty<T extends object>(value: T): T | undefined {
  return Object.keys(value).length > 0 ? value : undefined;
}

/** Flags that apply to every device (also to each device of a fleet, under the file's own options). */
export function sharedOptions(flags: CliFlags): Partial<SimulatedDeviceOptions> {
  const faults: FaultOptions = defined({
    seed: flags.seed,
    drop: flags.drop,
    corrupt: flags.corrupt,
    pullAt: flags.pullAt,
    replugAfterMs: flags.replugAfter,
    stall: flags.stall,
    powerCycleDuringApply: flags.powerCycleDuringApply,
    paramDrift: flags.faultParamDrift,
  });
  return defined({
    protocol: flags.protocol,
    model: flags.model,
    firmwareVersion: flags.firmwareVersion,
    baudRate: flags.baud,
    ble: nonEmpty(
      defined({ mtu: flags.bleMtu, connectionIntervalMs: flags.bleInterval, packetsPerInterval: flags.blePackets }),
    ),
    udp: nonEmpty(defined({ bytesPerSecond: flags.udpRate, latencyMs: flags.udpLatency })),
    flashWriteBytesPerSecond: flags.flashRate,
    maxBlockSize: flags.maxBlockSize,
    maxInFlight: flags.maxInFlight,
    rebootMs: flags.rebootMs,
    applyMs: flags.applyMs,
    pressEstopAfterMs: flags.pressEstopAfterMs,
    faults: nonEmpty(faults),
  });
}
