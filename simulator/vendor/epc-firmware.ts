import { CODE, type CoapMessage } from '../../protocol/coap';
import { simulatedImageVersion } from '../../domain/vendor/simulated-image';
import { decodeEpcFirmwareBody, EpcFirmwareBodyError, VENDOR_RESOURCE } from '../../protocol/vendor';
import type { ResourceResponse } from '../coap/types';
import { finalBlockOptions, SequentialBlockReceiver } from './block-receiver';
import type { VendorContext } from './device';
import { badRequest, textResponse } from './responses';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Steps of the install the status resource reports, besides 'idle'. */
const INSTALL_STEPS = 4;

/**
 * The EPC's firmware update (vendor spec §6.3, §7.2): the package arrives as one CBOR body
 * {length, data, sha256} in Block1 blocks; the device checks length and SHA-256, answers with a
 * text line, installs (status on `fl/fw/epc/status`, observable: 'verifying', 'installing N%',
 * 'installed VERSION, rebooting') and reboots into the new version. The version comes from the
 * package's simulated-image header; a package without one is installed and keeps the version.
 */
export class EpcFirmware {
  private readonly receiver: SequentialBlockReceiver;
  private status = 'idle';
  private cancelled = false;

  constructor(options: { maxBlockSize: number; maxSize: number }) {
    // The body is the package plus its CBOR wrapping (a few dozen bytes).
    this.receiver = new SequentialBlockReceiver({
      maxBlockSize: options.maxBlockSize,
      maxSize: options.maxSize + 128,
      what: 'The firmware body',
    });
  }

  /** A reboot or stop: the body in RAM and a running install are gone. */
  cancel(): void {
    this.cancelled = true;
    this.status = 'idle';
    this.receiver.reset();
  }

  statusResponse(): ResourceResponse {
    return { ...textResponse(CODE.CONTENT, this.status), observable: true };
  }

  async post(message: CoapMessage, device: VendorContext): Promise<ResourceResponse | undefined> {
    // The faults strike before the block is stored: a pulled cable loses the block in hand, and
    // its retransmission after the replug continues the upload where it was.
    const end = SequentialBlockReceiver.endOf(message);
    if (end > 0) {
      const faults = device.faults.onFirmwareBlock(end);
      if (faults.pull) {
        device.pullCable();
        return undefined;
      }
      if (faults.stallMs > 0) device.stall(faults.stallMs);
    }
    const outcome = this.receiver.receive(message);
    if (!outcome.done) return outcome.response;
    let version: string;
    try {
      const body = decodeEpcFirmwareBody(outcome.body);
      version = simulatedImageVersion(body.data) ?? device.store.current.firmwareVersion;
    } catch (error) {
      if (!(error instanceof EpcFirmwareBodyError)) throw error;
      this.setStatus(`failed: ${error.message}`, device);
      return { ...badRequest(error.message), options: finalBlockOptions(outcome.block) };
    }
    this.cancelled = false;
    this.setStatus('verifying', device);
    void this.install(version, device);
    return {
      ...textResponse(
        CODE.CHANGED,
        `Update started: package verified, installing ${version}; observe ${VENDOR_RESOURCE.epcFirmwareStatus}`,
      ),
      options: finalBlockOptions(outcome.block),
    };
  }

  private async install(version: string, device: VendorContext): Promise<void> {
    const stepMs = device.options.applyMs / INSTALL_STEPS;
    const powerCut = device.faults.takePowerCycleDuringApply();
    for (let step = 0; step < INSTALL_STEPS; step++) {
      await sleep(stepMs);
      if (this.cancelled) return;
      if (powerCut && step === INSTALL_STEPS / 2) {
        // The A/B install is cut halfway: the device boots its old version.
        await device.reboot({ powerLoss: true });
        return;
      }
      this.setStatus(`installing ${Math.round((100 * (step + 1)) / INSTALL_STEPS)}%`, device);
    }
    await device.store.commit((next) => {
      next.firmwareVersion = version;
    });
    this.setStatus(`installed ${version}, rebooting`, device);
    await device.resetAfterResponse('normal');
  }

  private setStatus(status: string, device: VendorContext): void {
    this.status = status;
    device.notify(VENDOR_RESOURCE.epcFirmwareStatus, this.statusResponse());
  }
}
