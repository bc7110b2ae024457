import { AuthError, CancelledError, CloudError, NetworkError, ServiceError } from '../../cloud/errors';
import {
  DeviceDisconnectedError,
  DeviceError,
  DeviceProtocolError,
  DeviceTimeoutError,
  DeviceVerificationError,
  isAbortError,
} from '../../devices/errors';
import { LinkClosedError } from '../../devices/links/link';
import { FileFormatError } from '../../../domain/files/file-error';
import { DeviceNotFoundError } from './device-port';
import { NoFirmwareAvailableError } from '../cache/resolve-firmware';
import { failurePlace, type FailureReason } from '../../../domain/job-failure';

/**
 * Every way a job can fail, reduced to what a technician needs on one line: a stable code, a
 * sentence without the device's name (the caller puts it in front), and whether running the job
 * again continues where it stopped.
 */

export interface Failure {
  code: string;
  message: string;
  /** What to do about it, for the technician (not sent to the service): 'run the same command again to resume'. */
  hint: string | null;
  /** Running the same job again resumes (an interrupted firmware upload the device kept). */
  resumable: boolean;
  cancelled: boolean;
  /**
   * The same failure as codes and values, for the screens and the CLI to say in the reader's
   * language (domain/job-failure.ts); null for failures the code's catalogue text says well
   * enough (a service's refusal, a file that is not one, a check of the job's own).
   */
  reason: FailureReason | null;
}

/** The line a technician reads: the failure and what to do about it. */
export function failureText(failure: Pick<Failure, 'message' | 'hint'>): string {
  return failure.hint ? `${failure.message}; ${failure.hint}` : failure.message;
}

/** A check of the job's own failed: the device came back with another version, a file for another device. */
export class JobFailure extends Error {
  override readonly name = 'JobFailure';
  constructor(
    readonly code: string,
    message: string,
    readonly resumable = false,
    readonly hint: string | null = null,
  ) {
    super(message);
  }
}

/** Where the job was when it failed, for the text: "firmware upload failed at 37%". */
export interface FailureContext {
  step: 'firmware' | 'configuration';
  phase: string;
  /** Percent of the upload acknowledged, when uploading. */
  percent: number | null;
  /** The link was being opened and the device asked who it is: nothing has been done yet. */
  connecting?: boolean;
}

function where(context: FailureContext): string {
  if (context.phase === 'uploading') {
    const at = context.percent === null ? '' : ` at ${Math.floor(context.percent)}%`;
    return `${context.step} upload failed${at}`;
  }
  switch (context.phase) {
    case 'applying':
      return `${context.step === 'firmware' ? 'firmware apply' : 'configuration apply'} failed`;
    case 'rebooting':
      return 'the device did not come back after restarting';
    case 'checking':
      return 'reading back from the device failed';
    case 'verifying-parameters':
      return 'parameter verification failed';
    case 'resolving':
    case 'downloading':
      return `getting the ${context.step === 'firmware' ? 'firmware' : 'configuration file'} failed`;
    default:
      return `${context.step} ${context.step === 'firmware' ? 'update' : 'apply'} failed`;
  }
}

export function describeFailure(error: unknown, context: FailureContext): Failure {
  if (context.connecting && !isAbortError(error) && !(error instanceof JobFailure))
    return unreachableDevice(error, context);
  const prefix = where(context);
  const plain = (
    code: string,
    message: string,
    hint: string | null = null,
    reason: FailureReason | null = null,
  ): Failure => ({
    code,
    message,
    hint,
    resumable: false,
    cancelled: false,
    reason,
  });
  if (error instanceof JobFailure)
    return {
      code: error.code,
      message: error.message,
      hint: error.hint,
      resumable: error.resumable,
      cancelled: false,
      reason: null,
    };
  // Where it failed, for the reason's words: the step, the place, and how far an upload got.
  const place = failurePlace(context.phase);
  const percent = place === 'upload' && context.percent !== null ? Math.floor(context.percent) : null;
  const reasonOf = (cause: FailureReason['cause'], more: Partial<FailureReason> = {}): FailureReason => ({
    cause,
    step: context.step,
    place,
    percent,
    ...more,
  });
  const uploading = context.phase === 'uploading' && context.step === 'firmware';
  const at = context.percent !== null && context.phase === 'uploading' ? ` at ${Math.floor(context.percent)}%` : '';
  if (isAbortError(error) || error instanceof CancelledError) {
    return {
      code: 'CANCELLED',
      message: `cancelled during ${context.phase}${at}`,
      hint: uploading ? 'run the same command again to resume' : null,
      resumable: uploading,
      cancelled: true,
      reason: reasonOf('cancelled'),
    };
  }
  const again = uploading ? 'run the same command again to resume' : 'run the same command again';
  if (error instanceof DeviceTimeoutError && error.tries === 0) {
    // A wait for the device to come back, not a retransmission.
    const within = /within ([\d.]+ s)/.exec(error.message)?.[1];
    const waitedSeconds = within === undefined ? null : Math.round(Number.parseFloat(within));
    const message = uploading
      ? `${prefix} (cable pulled?): the device went away and did not come back${within ? ` within ${within}` : ''}`
      : `${prefix}: the device did not come back${within ? ` within ${within}` : ''} (${error.context.step})`;
    return {
      code: 'DEVICE_GONE',
      message,
      hint: uploading ? 'plug it in and run the same command again to resume' : again,
      resumable: uploading,
      cancelled: false,
      reason: reasonOf('deviceGone', { waitedSeconds: Number.isFinite(waitedSeconds) ? waitedSeconds : null }),
    };
  }
  if (error instanceof DeviceTimeoutError) {
    return {
      code: 'DEVICE_TIMEOUT',
      message: `${prefix}${uploading ? ' (cable pulled?)' : ''}: the device stopped answering after ${error.tries} ${error.tries === 1 ? 'try' : 'tries'}`,
      hint: again,
      resumable: uploading,
      cancelled: false,
      reason: reasonOf('deviceTimeout', { tries: error.tries }),
    };
  }
  if (error instanceof DeviceDisconnectedError || error instanceof LinkClosedError) {
    return {
      code: 'DEVICE_DISCONNECTED',
      message: `${prefix}: the device disconnected (cable pulled?)`,
      hint: again,
      resumable: uploading,
      cancelled: false,
      reason: reasonOf('disconnected'),
    };
  }
  if (error instanceof DeviceError) {
    const text = error.deviceMessage ? `: ${error.deviceMessage}` : '';
    return plain(
      error.code,
      `${prefix}: the device refused it (${error.code}${text})`,
      null,
      reasonOf('deviceRefused', { deviceCode: error.code, deviceMessage: error.deviceMessage || null }),
    );
  }
  if (error instanceof DeviceVerificationError)
    return plain(
      error.code,
      `${prefix}: ${withoutDevice(error.message, error.context.device)}`,
      'run the same command again',
    );
  if (error instanceof DeviceProtocolError)
    return plain('DEVICE_PROTOCOL', `${prefix}: ${withoutDevice(error.message, error.context.device)}`);
  if (error instanceof FileFormatError) return plain(error.code, error.message.replace(/\.$/, ''));
  if (error instanceof NoFirmwareAvailableError) return plain('NO_FIRMWARE_CACHED', error.message.replace(/\.$/, ''));
  if (error instanceof DeviceNotFoundError) return plain('DEVICE_NOT_FOUND', error.message.replace(/\.$/, ''));
  if (error instanceof AuthError)
    return plain(
      error.errors[0]?.code ?? `HTTP_${error.httpStatus}`,
      `${prefix}: the service refused the key: ${error.message}`,
      'log in again',
    );
  if (error instanceof ServiceError)
    return plain(error.errors[0]?.code ?? `HTTP_${error.httpStatus}`, `${prefix}: ${error.message}`);
  if (error instanceof NetworkError) return plain('SERVICE_UNREACHABLE', `${prefix}: ${error.message}`);
  if (error instanceof CloudError) return plain('SERVICE_ANSWER', `${prefix}: ${error.message}`);
  return plain('INTERNAL', `${prefix}: ${error instanceof Error ? error.message : String(error)}`);
}

/** The device could not be opened or did not say who it is: nothing was sent to it. */
function unreachableDevice(error: unknown, context: FailureContext): Failure {
  const base = {
    hint: 'check the cable and the address, then run the same command again',
    resumable: false,
    cancelled: false,
    reason: null,
  };
  if (error instanceof DeviceTimeoutError)
    return {
      ...base,
      code: 'DEVICE_NOT_ANSWERING',
      message: `no device answers on ${error.context.link} (${error.tries} tries)`,
      reason: {
        cause: 'noAnswer',
        step: context.step,
        place: 'step',
        percent: null,
        tries: error.tries,
        link: error.context.link,
      },
    };
  if (error instanceof DeviceNotFoundError)
    return { ...base, code: 'DEVICE_NOT_FOUND', message: error.message.replace(/\.$/, '') };
  if (error instanceof DeviceVerificationError)
    return {
      ...base,
      code: error.code,
      message: `${withoutDevice(error.message, error.context.device)}; nothing was sent`,
    };
  const text = (error instanceof Error ? error.message : String(error)).replace(/^Error: /, '');
  return { ...base, code: 'DEVICE_UNREACHABLE', message: `could not open the device: ${text}` };
}

/** The caller names the device in front of the line: "EPC000101: came back …" reads "came back …". */
function withoutDevice(message: string, device: string): string {
  return message.startsWith(`${device}: `)
    ? message.slice(device.length + 2)
    : message.startsWith(`${device} `)
      ? `the device ${message.slice(device.length + 1)}`
      : message;
}
