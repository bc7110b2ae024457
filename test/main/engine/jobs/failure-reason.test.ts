import { describe, expect, it } from 'vitest';
import {
  DeviceDisconnectedError,
  DeviceError,
  DeviceTimeoutError,
  type DeviceErrorContext,
} from '../../../../main/devices/errors';
import { describeFailure, JobFailure } from '../../../../main/engine/jobs/failure';

/**
 * Each bench failure the jobs core describes carries its reason as codes and values
 * (Failure.reason, domain/job-failure.ts) beside the English sentence, which stays as it was
 * (logs, --json and the service read it). A check of the job's own and a service's refusal carry
 * none: their code's catalogue text says them.
 */

const at: DeviceErrorContext = { device: 'EPC000101', step: 'firmware block 31', link: 'serial:/dev/pts/4' };
const uploading = { step: 'firmware', phase: 'uploading', percent: 37.6 } as const;

describe('describeFailure', () => {
  it('a device that stopped answering during an upload: where, how far and how many tries', () => {
    const failure = describeFailure(new DeviceTimeoutError(at, 3), uploading);
    expect(failure.message).toBe(
      'firmware upload failed at 37% (cable pulled?): the device stopped answering after 3 tries',
    );
    expect(failure.reason).toEqual({
      cause: 'deviceTimeout',
      step: 'firmware',
      place: 'upload',
      percent: 37,
      tries: 3,
    });
  });

  it('a device that did not come back: the wait, in seconds', () => {
    const gone = new DeviceTimeoutError(at, 0, 'come back for', 'within 2 s');
    const failure = describeFailure(gone, { step: 'configuration', phase: 'rebooting', percent: null });
    expect(failure.code).toBe('DEVICE_GONE');
    expect(failure.reason).toEqual({
      cause: 'deviceGone',
      step: 'configuration',
      place: 'reboot',
      percent: null,
      waitedSeconds: 2,
    });
  });

  it('a disconnection, a refusal with the device’s own words, and a cancelled upload', () => {
    expect(describeFailure(new DeviceDisconnectedError(at), { ...uploading, phase: 'applying' }).reason).toEqual({
      cause: 'disconnected',
      step: 'firmware',
      place: 'apply',
      percent: null,
    });
    const refused = describeFailure(new DeviceError('E_LOCKED', '4.03', 'configuration locked', at), {
      step: 'configuration',
      phase: 'applying',
      percent: null,
    });
    expect(refused.message).toBe('configuration apply failed: the device refused it (E_LOCKED: configuration locked)');
    expect(refused.reason).toMatchObject({
      cause: 'deviceRefused',
      deviceCode: 'E_LOCKED',
      deviceMessage: 'configuration locked',
    });
    expect(describeFailure(new DOMException('stopped', 'AbortError'), uploading).reason).toEqual({
      cause: 'cancelled',
      step: 'firmware',
      place: 'upload',
      percent: 37,
    });
  });

  it('no device answering on the link at all', () => {
    const failure = describeFailure(new DeviceTimeoutError(at, 4), {
      ...uploading,
      phase: 'resolving',
      connecting: true,
    });
    expect(failure.message).toBe('no device answers on serial:/dev/pts/4 (4 tries)');
    expect(failure.reason).toMatchObject({ cause: 'noAnswer', link: 'serial:/dev/pts/4', tries: 4 });
  });

  it('a check of the job’s own carries no reason: its code says it', () => {
    const own = describeFailure(new JobFailure('FW_VERSION_MISMATCH', 'came back with 1.0.0, not 1.1.0'), uploading);
    expect(own.reason).toBeNull();
  });
});
