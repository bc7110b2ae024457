/**
 * What goes wrong when talking to a device, each error naming the device and the step so that a
 * technician reading one line knows what to look at.
 */

export interface DeviceErrorContext {
  /** The device's serial number once known, else a description of where it is. */
  device: string;
  /** What the host was doing: 'info request', 'firmware block 37 (offset 37888)'. */
  step: string;
  /** The link's description: 'serial:/dev/pts/4'. */
  link: string;
}

/** The device answered with a 4.xx or 5.xx response. */
export class DeviceError extends Error {
  override readonly name = 'DeviceError';
  constructor(
    /** The protocol's error code ('FW_HASH_MISMATCH'), or 'COAP_4.04' when the device sent no CBOR error. */
    readonly code: string,
    /** The CoAP response code, '4.00'. */
    readonly coapCode: string,
    readonly deviceMessage: string,
    readonly context: DeviceErrorContext,
    /** Extra fields of the error payload (offset, maxSize, …). */
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(
      `${context.device} refused ${context.step}: ${code} (${coapCode})${deviceMessage ? `: ${deviceMessage}` : ''}`,
    );
  }
}

/** No acknowledgement or response in time, after every retransmission. */
export class DeviceTimeoutError extends Error {
  override readonly name = 'DeviceTimeoutError';
  constructor(
    readonly context: DeviceErrorContext,
    readonly tries: number,
    what = 'acknowledge',
    /** Replaces the "after N tries" ending, for waits that are not retransmissions. */
    ending?: string,
  ) {
    super(
      `${context.device} did not ${what} ${context.step} ${ending ?? `after ${tries} ${tries === 1 ? 'try' : 'tries'}`} over ${context.link}`,
    );
  }
}

/**
 * The device answered every request but does not report what the host sent: it came back from a
 * firmware apply with another version, or from a configuration with another syncId.
 */
export class DeviceVerificationError extends Error {
  override readonly name = 'DeviceVerificationError';
  constructor(
    /** FW_APPLY_FAILED, CONFIG_NOT_APPLIED, DEVICE_MISMATCH. */
    readonly code: string,
    readonly context: DeviceErrorContext,
    detail: string,
  ) {
    super(`${context.device}: ${detail} (${context.step}, ${context.link})`);
  }
}

/** The link went away during a step (cable pulled, device rebooted, BLE disconnect). */
export class DeviceDisconnectedError extends Error {
  override readonly name = 'DeviceDisconnectedError';
  constructor(
    readonly context: DeviceErrorContext,
    cause?: unknown,
  ) {
    super(`${context.device} disconnected during ${context.step} (${context.link})`, { cause });
  }
}

/** The device answered something the protocol does not allow at this point. */
export class DeviceProtocolError extends Error {
  override readonly name = 'DeviceProtocolError';
  constructor(
    readonly context: DeviceErrorContext,
    detail: string,
  ) {
    super(`${context.device} answered ${context.step} unexpectedly: ${detail}`);
  }
}

/** The error an aborted operation rejects with: the signal's reason, or an AbortError. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
