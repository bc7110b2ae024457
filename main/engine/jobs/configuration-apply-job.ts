import {
  decideConfigFile,
  decodeConfigFile,
  FileFormatError,
  verifyConfigFile,
  type ConfigFileDecision,
  type DecodedConfigFile,
} from '../../../domain/files';
import type { DeviceConfigStatus, DeviceIdentity, DeviceConnection } from './device-port';
import { confirmConfiguration } from './confirm';
import {
  trackPhase,
  type ConfigurationJobRequest,
  type JobControl,
  type JobEnvironment,
  type StepResult,
} from './context';
import { describeFailure, JobFailure } from './failure';
import { confirmFailure, failedStepResult } from './failed-step';
import type { JobIntent } from './intent-journal';
import { configurationWarningsNotice } from './configuration-warnings';
import { reconcileJobDevice } from './job-contact';
import { openJobDevice } from './job-opening';
import { runWithReconnect, type SessionHolder } from './session-holder';
import { checkRunningParameters } from './parameter-check';
import { parameterMismatchAdvice, type ParameterComparison } from '../../../domain/running-parameters';

/**
 * Configuration apply on one attached device:
 *
 *   (a file for a named serial number is checked before anything is opened) → identify → get the
 *   device's file (service, with its syncId header; the kept copy when the service is unreachable;
 *   or a file) → check it is for THIS device, from the organization signed in to and, when the
 *   service's root key is known, its signatures → ask the device what it holds (GET /config) and
 *   check what the device would: the organization it is claimed by, no older sequence than the
 *   applied one; the very file applied already is "up to date" → record the intent → upload → the
 *   device reports the syncId it applied → wait for the reboot → read the syncId back → confirm
 *   through the outbox.
 *
 * A file the device would refuse (another device's, another organization's, an older one) is
 * refused before a single byte of it goes to the device.
 */
export async function runConfigurationJob(
  env: JobEnvironment,
  request: ConfigurationJobRequest,
  control: JobControl,
): Promise<StepResult> {
  const { signal } = control;
  const { where, phase } = trackPhase(control, 'configuration');
  const holder: SessionHolder = { session: undefined };
  let intent: JobIntent | undefined;
  let identity: DeviceIdentity | undefined;
  let decoded: DecodedConfigFile | undefined;
  let notice: string | null = null;
  let parameters: ParameterComparison | null = null;
  try {
    phase('resolving', { bytesDone: 0, bytesTotal: null, resumedFrom: null });
    if (request.source.kind === 'file' && request.target.serialNumber !== undefined) {
      // The technician named the device: a file for another one is refused before any link is opened.
      checkFileIsFor(decodeConfigFile(request.source.bytes), request.target.serialNumber, request.source.name);
    }
    const opened = await openJobDevice(env, request.target, control, where, holder);
    identity = opened.identity;

    let bytes: Uint8Array;
    let fileName: string;
    if (request.source.kind === 'service') {
      phase('downloading');
      const resolved = await env.configFiles.resolve(env.client.devices, identity.serialNumber, { signal });
      bytes = resolved.bytes;
      notice =
        [resolved.notice, await configurationWarningsNotice(env.client, identity.serialNumber, signal)]
          .filter(Boolean)
          .join(' ') || null;
      fileName = `the configuration file of ${identity.serialNumber}`;
    } else {
      bytes = request.source.bytes;
      fileName = request.source.name;
    }

    phase('verifying', { notice });
    decoded = decodeConfigFile(bytes);
    checkFileIsFor(decoded, identity.serialNumber, fileName);
    if (decoded.deviceType !== identity.deviceType) {
      throw new JobFailure(
        'CONFIG_WRONG_TYPE',
        `${fileName} is for a ${decoded.deviceType} device but ${identity.serialNumber} is a ${identity.deviceType}; nothing was sent`,
      );
    }
    checkFileIsFromOrganization(decoded, env.address.orgId, fileName);
    const key = await env.signingKeys.get(env.client, { signal });
    if (key.key) {
      verifyConfigFile(bytes, { rootKeyPem: key.key.publicKeyPem, expectedSerialNumber: identity.serialNumber });
    } else {
      notice = [
        notice,
        'The service root key is not known here yet, so the signatures were left to the device to check.',
      ]
        .filter(Boolean)
        .join(' ');
    }
    const syncId = decoded.syncId.toLowerCase();
    control.update({ syncId, notice });
    // Read on the session the job opened: no reconnection happens before the upload.
    const held = await opened.session.readConfigStatus(signal);
    if (decideAsTheDevice(decoded, held, identity.serialNumber, fileName) === 'unchanged') {
      // Nothing is sent, but what the device runs is still verified: it may have drifted since.
      phase('verifying-parameters');
      parameters = await checkRunningParameters(opened.session, decoded, signal);
      control.update({ parameters });
      if (!parameters.match) throw parameterMismatch(parameters);
      return {
        phase: 'done',
        outcome: 'up-to-date',
        resultMessage: `already holds configuration ${syncId} (sequence ${decoded.sequence}); nothing sent`,
        errorCode: null,
        resumable: false,
        // The service may not have recorded that it holds it: tell it what was observed.
        confirmation: await reconcileJobDevice(env, identity),
        syncId,
        notice,
        parameters,
      };
    }

    intent = await env.intents.record({
      jobId: `${control.jobId}-configuration`,
      kind: 'configuration',
      serviceUrl: env.address.serviceUrl,
      orgId: env.address.orgId,
      serialNumber: identity.serialNumber,
      firmwareVersion: null,
      syncId,
      previousSyncId: identity.configSyncId,
      phase: 'uploading',
    });

    phase('uploading', { bytesDone: 0, bytesTotal: bytes.length });
    const applied = { syncId: '', identity: opened.session.identity };
    await runWithReconnect(
      env,
      request.target,
      identity.serialNumber,
      holder,
      control,
      where,
      notice,
      async (session: DeviceConnection) => {
        const answer = await session.uploadConfiguration(bytes, {
          signal,
          onProgress: ({ bytes, total }) => {
            where.percent = (bytes / total) * 100;
            control.update({ bytesDone: bytes, bytesTotal: total });
            // The whole file is in: the device checks it, stores it and restarts.
            if (bytes >= total && where.phase === 'uploading') phase('rebooting');
          },
        });
        applied.syncId = answer.syncId;
        applied.identity = answer.identity;
      },
    );
    if (applied.syncId.toLowerCase() !== syncId) {
      throw new JobFailure(
        'CONFIG_SYNC_ID_MISMATCH',
        `the device reports it applied syncId ${applied.syncId}, not the file's ${syncId}`,
      );
    }
    intent = await env.intents.advance(intent, 'checking');
    phase('checking');
    if ((applied.identity.configSyncId ?? '').toLowerCase() !== syncId) {
      throw new JobFailure(
        'CONFIG_NOT_APPLIED',
        `after restarting the device holds configuration ${applied.identity.configSyncId ?? 'none'}, not ${syncId}`,
        false,
        'run the same command again',
      );
    }
    // The syncId says which file the device took, not what it runs: the parameters it decoded and
    // stored are read back and compared with what the file intends (issue 26).
    phase('verifying-parameters');
    parameters = await checkRunningParameters(holder.session ?? opened.session, decoded, signal);
    control.update({ parameters });
    if (!parameters.match) throw parameterMismatch(parameters);
    phase('confirming');
    const confirmation = await confirmConfiguration(
      env.outbox,
      env.address,
      identity.serialNumber,
      { success: true, syncId },
      env.now(),
    );
    await env.intents.clear(intent.jobId);
    return {
      phase: 'done',
      outcome: 'applied',
      resultMessage: `configuration ${syncId} applied${decoded.content.blank ? ' (blank: device reset to no configuration)' : ''}`,
      errorCode: null,
      resumable: false,
      confirmation,
      syncId,
      notice,
      parameters,
    };
  } catch (error) {
    const failure = describeFailure(error, {
      step: 'configuration',
      phase: where.phase,
      percent: where.percent,
      connecting: where.connecting,
    });
    // The device and the file the intent was recorded for (both known by then).
    const tried = identity && decoded && { serialNumber: identity.serialNumber, syncId: decoded.syncId.toLowerCase() };
    const confirmation = await confirmFailure(
      env.intents,
      intent,
      tried &&
        (() =>
          confirmConfiguration(
            env.outbox,
            env.address,
            tried.serialNumber,
            { success: false, syncId: tried.syncId, error: failure.message },
            env.now(),
          )),
    );
    // Awaited here, not returned as a promise: the finally below closes the session it reads.
    return {
      ...(await failedStepResult(env, holder.session, failure, { confirmation, notice, resumable: false })),
      parameters,
    };
  } finally {
    await holder.session?.close().catch(() => undefined);
  }
}

function parameterMismatch(comparison: ParameterComparison): JobFailure {
  const rows = comparison.rows
    .filter((row) => !row.match)
    .map((row) => `${row.label} ${String(row.intended)} intended, ${String(row.running)} running`);
  const what = rows.length > 0 ? rows.join('; ') : 'the checksums differ';
  return new JobFailure(
    'PARAMETERS_MISMATCH',
    `the device took the file but does not run its parameters: ${what}`,
    false,
    parameterMismatchAdvice(comparison),
  );
}

function checkFileIsFor(decoded: DecodedConfigFile, serialNumber: string, fileName: string): void {
  if (decoded.serialNumber !== serialNumber) {
    throw new JobFailure(
      'CONFIG_WRONG_DEVICE',
      `${fileName} is for device ${decoded.serialNumber}, not ${serialNumber}; nothing was sent`,
      false,
      `download the file of ${serialNumber} (provisioner device configuration download ${serialNumber})`,
    );
  }
}

function checkFileIsFromOrganization(decoded: DecodedConfigFile, orgId: string, fileName: string): void {
  if (decoded.orgId !== orgId) {
    throw new JobFailure(
      'CONFIG_WRONG_ORGANIZATION',
      `${fileName} is a file of organization ${decoded.orgId}, not of ${orgId} (signed in); nothing was sent`,
      false,
      `download the file of ${decoded.serialNumber} from organization ${orgId}`,
    );
  }
}

/**
 * The device's own decision (domain/files/config-file-acceptance.ts), made here from what it
 * reports, so that a refusal reads as the technician's next step. A device that reports no
 * sequence or claim is left to decide for itself.
 */
function decideAsTheDevice(
  decoded: DecodedConfigFile,
  held: DeviceConfigStatus,
  serialNumber: string,
  fileName: string,
): ConfigFileDecision {
  const applied =
    held.sequence !== null && held.syncId !== null ? { sequence: held.sequence, syncId: held.syncId } : null;
  try {
    return decideConfigFile(decoded, { claim: held.claim, applied });
  } catch (error) {
    if (!(error instanceof FileFormatError)) throw error;
    if (error.code === 'CONFIG_WRONG_ORGANIZATION' && held.claim) {
      throw new JobFailure(
        error.code,
        `${serialNumber} belongs to organization ${held.claim.orgId} and takes only files signed with its key (${held.claim.keyId}); ${fileName} is signed by ${decoded.orgId} (key ${decoded.keyId}); nothing was sent`,
        false,
        'a device changes organization only after a factory reset',
      );
    }
    if (error.code === 'CONFIG_SUPERSEDED' && applied) {
      throw new JobFailure(
        error.code,
        `${serialNumber} applied a newer configuration file (sequence ${applied.sequence}, syncId ${applied.syncId}) than ${fileName} (sequence ${decoded.sequence}); nothing was sent`,
        false,
        `download the current file of ${serialNumber} (provisioner device configuration download ${serialNumber})`,
      );
    }
    throw error;
  }
}
