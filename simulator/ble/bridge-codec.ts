/**
 * JSON lines between a simulator process and simulated noble bindings in another process. Bytes
 * travel as { $b: base64 }, errors as { $e: message }; everything else noble's bindings exchange
 * is plain JSON (uuids, numbers, booleans, advertisement objects).
 */
export interface BridgeCall {
  call: string;
  args: unknown[];
}

export interface BridgeEvent {
  event: string;
  args: unknown[];
}

/** The events noble's Noble constructor listens for on its bindings. */
export const BINDINGS_EVENTS = [
  'stateChange',
  'addressChange',
  'scanParametersSet',
  'scanStart',
  'scanStop',
  'discover',
  'connect',
  'disconnect',
  'rssiUpdate',
  'servicesDiscover',
  'servicesDiscovered',
  'includedServicesDiscover',
  'characteristicsDiscover',
  'characteristicsDiscovered',
  'read',
  'write',
  'broadcast',
  'notify',
  'descriptorsDiscover',
  'valueRead',
  'valueWrite',
  'handleRead',
  'handleWrite',
  'handleNotify',
  'onMtu',
] as const;

/** The methods noble calls on its bindings. */
export const BINDINGS_METHODS = [
  'init',
  'reset',
  'setScanParameters',
  'startScanning',
  'stopScanning',
  'connect',
  'cancelConnect',
  'disconnect',
  'updateRssi',
  'discoverServices',
  'discoverIncludedServices',
  'discoverCharacteristics',
  'read',
  'write',
  'broadcast',
  'notify',
  'discoverDescriptors',
  'readValue',
  'writeValue',
  'readHandle',
  'writeHandle',
  'addService',
  'addCharacteristics',
] as const;

export function encodeValue(value: unknown): unknown {
  if (value instanceof Uint8Array)
    return { $b: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  if (value instanceof Error) return { $e: value.message };
  if (Array.isArray(value)) return value.map(encodeValue);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encodeValue(v)]));
  return value === undefined ? null : value;
}

export function decodeValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeValue);
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.$b === 'string') return Buffer.from(record.$b, 'base64');
    if (typeof record.$e === 'string') return new Error(record.$e);
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, decodeValue(v)]));
  }
  return value;
}

/** Splits a stream into lines and parses each as JSON. */
export function lineReader(onLine: (value: unknown) => void): (chunk: Buffer) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk.toString('utf8');
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.length > 0) onLine(JSON.parse(line));
      newline = pending.indexOf('\n');
    }
  };
}
