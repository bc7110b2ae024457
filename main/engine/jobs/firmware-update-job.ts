import { codingText, uploadCodingTerms } from '../../../domain/files/content-coding';
import { readFirmwareBundle, type FirmwareBundle } from '../../../domain/files/firmware-bundle';
import type { DeviceIdentity, DeviceConnection, FirmwareImage } from './device-port';
import { checkFirmwareSignature, type FirmwareSigner } from '../cache/firmware-signature';
import type { FirmwareImageFacts } from '../ledger/confirmation-ledger';
import { resolveFirmware } from '../cache/resolve-firmware';
import { confirmFirmware } from './confirm';
import { trackPhase, type FirmwareJobRequest, type JobControl, type JobEnvironment, type StepResult } from './context';
import { describeFailure, JobFailure } from './failure';
import { confirmFailure, failedStepResult } from './failed-step';
import type { JobIntent } from './intent-journal';
import { reconcileJobDevice } from './job-contact';
import { openJobDevice } from './job-opening';
import { runWithReconnect, type SessionHolder } from './session-holder';

/**
 * Firmware update of one attached device:
 *
 *   identify → resolve (service's latest for its serial number, or the cache when the service is
 *   unreachable; or a file) → verify the bundle (hashes, type = the device's, signed by a release
 *   key the service trusts: what the device checks, so no refusal comes after minutes of upload)
 *   → skip if it runs that version already → record the intent → upload (resuming after a pulled
 *   cable) → apply → wait for the reboot → read the version back → confirm through the outbox.
 *
 * Once the intent is recorded, the job ends with a confirmation whatever happens: success with the
 * version, or failure with the error text.
 */
export async function runFirmwareJob(
  env: JobEnvironment,
  request: FirmwareJobRequest,
  control: JobControl,
): Promise<StepResult> {
  const { signal } = control;
  const { where, phase } = trackPhase(control, 'firmware');
  const holder: SessionHolder = { session: undefined };
  let intent: JobIntent | undefined;
  let bundle: FirmwareBundle | undefined;
  let identity: DeviceIdentity | undefined;
  let notice: string | null = null;
  let signer: FirmwareSigner | undefined;
  // The image and its signer, once checked: the ledger entry names them, success or failure.
  const imageFacts = (): FirmwareImageFacts | undefined =>
    bundle && signer
      ? { imageSha256: bundle.imageSha256, signingKeyId: signer.keyId, signingKeyName: signer.name }
      : undefined;
  try {
    phase('resolving', { bytesDone: 0, bytesTotal: null });
    identity = (await openJobDevice(env, request.target, control, where, holder)).identity;

    let bytes: Uint8Array;
    /** Patches to the image from images the device may run (the cache's): sent when it runs one's base. */
    let patches: FirmwareImage['patches'];
    /** The image deflated once when it entered the cache (zopfli); a file given by path gets zlib at upload. */
    let deflated: FirmwareImage['deflated'];
    if (request.source.kind === 'latest') {
      const resolved = await resolveFirmware(
        env.cache,
        env.client,
        { deviceType: identity.deviceType, serialNumber: identity.serialNumber },
        { signal },
      );
      bytes = resolved.bytes;
      patches = resolved.patches;
      deflated = resolved.deflated;
      notice = resolved.notice ?? null;
    } else {
      bytes = request.source.bytes;
    }
    phase('verifying', { notice });
    bundle = readFirmwareBundle(bytes, { deviceType: identity.deviceType });
    // `force` reinstalls a version; it never lets an unsigned image through.
    const checked = await checkFirmwareSignature(bundle, env.cache.releaseKeys, env.client, { signal });
    signer = checked.signer;
    const { signedManifest } = checked;
    control.update({ firmwareVersion: bundle.version, firmwareSigner: signer });

    if (!request.force && identity.firmwareVersion === bundle.version) {
      return {
        phase: 'done',
        outcome: 'up-to-date',
        resultMessage: `already runs firmware ${bundle.version}; nothing sent`,
        errorCode: null,
        resumable: false,
        // The service may not know it runs that version yet: tell it what was observed.
        confirmation: await reconcileJobDevice(env, identity),
        firmwareVersion: bundle.version,
        notice,
      };
    }

    const image: FirmwareImage = {
      bytes: bundle.image,
      sha256: bundle.imageSha256,
      version: bundle.version,
      deviceType: bundle.deviceType,
      signedManifest,
      patches,
      deflated,
    };
    intent = await env.intents.record({
      jobId: control.jobId,
      kind: 'firmware',
      serviceUrl: env.address.serviceUrl,
      orgId: env.address.orgId,
      serialNumber: identity.serialNumber,
      firmwareVersion: bundle.version,
      syncId: null,
      previousFirmwareVersion: identity.firmwareVersion,
      phase: 'uploading',
    });

    phase('uploading', { bytesDone: 0, bytesTotal: image.bytes.length, resumedFrom: null });
    const announced: number[] = [];
    await runWithReconnect(
      env,
      request.target,
      identity.serialNumber,
      holder,
      control,
      where,
      notice,
      async (session: DeviceConnection) => {
        const result = await session.uploadFirmware(image, {
          signal,
          onProgress: (progress) => {
            where.percent = (progress.bytes / progress.total) * 100;
            const transferCodingTerms = uploadCodingTerms(
              progress.coding ?? 'identity',
              progress.total,
              progress.wireTotal ?? progress.total,
            );
            // Only an announce's figure says where the upload (re)started: a fresh upload whose first
            // blocks went behind its announce first reports them acknowledged, not resumed.
            control.update({
              bytesDone: progress.bytes,
              bytesTotal: progress.total,
              transferCoding: transferCodingTerms ? codingText(transferCodingTerms) : null,
              transferCodingTerms,
              ...(progress.announced ? { resumedFrom: progress.bytes } : {}),
            });
          },
        });
        announced.push(...result.announcedOffsets);
      },
    );
    // Each announce after the first is a reconnection; the last offset is where the upload resumed.
    control.update({ resumedFrom: announced.at(-1) ?? 0, attempts: Math.max(1, announced.length) });
    const resumedAt =
      announced.length > 1 || (announced[0] ?? 0) > 0
        ? Math.floor(((announced.at(-1) ?? 0) / image.bytes.length) * 100)
        : null;

    intent = await env.intents.advance(intent, 'applying');
    // Applying includes the restart: the device installs the image, reboots, and answers again.
    phase('applying', { notice });
    const after = await holder.session!.applyFirmware(bundle.version, { signal });
    phase('checking');
    if (after.firmwareVersion !== bundle.version) {
      throw new JobFailure(
        'FW_NOT_RUNNING',
        `the device restarted running firmware ${after.firmwareVersion}, not ${bundle.version}: the install did not take (power lost while applying?)`,
        false,
        'run the same command again',
      );
    }
    phase('confirming');
    const confirmation = await confirmFirmware(
      env.outbox,
      env.address,
      identity.serialNumber,
      { success: true, version: bundle.version },
      env.now(),
      imageFacts(),
    );
    await env.intents.clear(control.jobId);
    return {
      phase: 'done',
      outcome: 'applied',
      resultMessage: `firmware ${bundle.version} installed (was ${identity.firmwareVersion})${resumedAt === null ? '' : `; the upload resumed at ${resumedAt}%`}`,
      errorCode: null,
      resumable: false,
      confirmation,
      firmwareVersion: bundle.version,
      notice,
    };
  } catch (error) {
    const failure = describeFailure(error, {
      step: 'firmware',
      phase: where.phase,
      percent: where.percent,
      connecting: where.connecting,
    });
    const serialNumber = identity?.serialNumber;
    const confirmation = await confirmFailure(
      env.intents,
      intent,
      serialNumber === undefined
        ? undefined
        : () =>
            confirmFirmware(
              env.outbox,
              env.address,
              serialNumber,
              { success: false, version: bundle?.version ?? null, error: failure.message },
              env.now(),
              imageFacts(),
            ),
    );
    // Awaited here, not returned as a promise: the finally below closes the session it reads.
    return await failedStepResult(env, holder.session, failure, { confirmation, notice, resumable: failure.resumable });
  } finally {
    await holder.session?.close().catch(() => undefined);
  }
}
