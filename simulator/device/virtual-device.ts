import type { FirmwareImageHeader } from '../../domain/files/firmware-image';
import {
  DEDUPLICATION_CACHE_SIZE,
  FIRMWARE_STATUS_MIN_INTERVAL_MS,
  REBOOT_AFTER_RESPONSE_MS,
  RESOURCE,
} from '../../protocol/constants';
import { CoapServer } from '../coap/server';
import type { DeviceFaults } from '../faults';
import type { DeviceLink } from '../links/link';
import type { ResolvedDeviceOptions } from '../options';
import { FlashModel } from '../wire/flash';
import { ConfigUpload } from './config-upload';
import type { DeviceContext } from './context';
import { FirmwareUpdate } from './firmware-update';
import { deviceResources, firmwareStatusResponse } from './resources';
import { createRouter } from './router';
import { StateStore, type DeviceState } from './state';
import { attachSafety, SafetyFunction } from './safety';
import { ControlSocket } from './control-socket';
import { SAFETY_RESOURCE } from '../../protocol/safety';
import { CODE } from '../../protocol/coap';
import { cborResponse } from './errors';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One simulated device: its memory (StateStore), its resources behind a CoAP server, and its life
 * (power, reboots, the cable). The link is up when the device is running and plugged in.
 */
export class VirtualDevice implements DeviceContext {
  readonly faults: DeviceFaults;
  readonly config: ConfigUpload;
  readonly firmware: FirmwareUpdate;
  /** The E-stop and the outputs (safety.ts); pressed through the control socket. */
  readonly safety: SafetyFunction;
  private control: ControlSocket | undefined;
  private readonly server: CoapServer;
  private running = false;
  private plugged = true;
  private stopped = false;
  /** Link transitions run one after another: a pull during a reboot must not race it. */
  private linkChain: Promise<void> = Promise.resolve();
  private notifyTimer: NodeJS.Timeout | undefined;
  private lastProgressNotification = 0;
  private replugTimer: NodeJS.Timeout | undefined;
  /** Set between a response that ends in a reboot and the reboot: changes get 5.03 BUSY. */
  private pending: string | null = null;

  private constructor(
    readonly options: ResolvedDeviceOptions,
    readonly store: StateStore,
    readonly link: DeviceLink,
    faults: DeviceFaults,
  ) {
    this.faults = faults;
    this.config = new ConfigUpload({
      maxSize: options.maxConfigSize,
      windowBytes: options.maxInFlight * options.maxBlockSize,
    });
    this.firmware = new FirmwareUpdate({
      store,
      deviceType: options.deviceType,
      releaseKeys: options.releaseKeys,
      blockSize: options.maxBlockSize,
      maxInFlight: options.maxInFlight,
      maxImageSize: options.maxImageSize,
      codings: options.codings,
      flash: new FlashModel(options.flashWriteBytesPerSecond),
      onChange: (stateChanged) => this.firmwareChanged(stateChanged),
    });
    this.server = new CoapServer({
      send: (message, peer) => this.link.send(message, peer),
      handle: createRouter(deviceResources(), this),
      blockSize: options.maxBlockSize,
      dedupCapacity: DEDUPLICATION_CACHE_SIZE,
      qBlock1MaxPayloads: options.qBlock1MaxPayloads,
    });
    this.safety = new SafetyFunction({
      serialNumber: options.serialNumber,
      busDir: options.safetyBusDir,
      configPath: store.configPath,
      ...(options.pressEstopAfterMs !== undefined ? { pressAfterObserveMs: options.pressEstopAfterMs } : {}),
      onChange: (status) =>
        this.server.notify(SAFETY_RESOURCE, cborResponse(CODE.CONTENT, status, { observable: true })),
    });
    attachSafety(this, this.safety);
  }

  /** A hand on the E-stop; returns the presses since boot. */
  async pressEstop(): Promise<number> {
    await this.safety.press();
    return this.safety.status().presses;
  }

  /** `faults` is shared with the link, which applies the frame faults. */
  static async start(options: ResolvedDeviceOptions, link: DeviceLink, faults: DeviceFaults): Promise<VirtualDevice> {
    const store = await StateStore.open(options.stateDir, {
      serialNumber: options.serialNumber,
      deviceType: options.deviceType,
      model: options.model,
      firmwareVersion: options.firmwareVersion,
    });
    const device = new VirtualDevice(options, store, link, faults);
    try {
      await link.open((message, peer) => device.server.receive(message, peer));
      await device.safety.start();
      // A device without its control socket (a path too long for a Unix socket) still works; only
      // presses through the socket are not possible, and the reason is said.
      device.control = await ControlSocket.listen(options.controlSocketPath, {
        pressEstop: () => device.pressEstop(),
      }).catch((error: unknown) => {
        console.error(
          `simulator ${options.serialNumber}: no control socket at ${options.controlSocketPath}: ${(error as Error).message}`,
        );
        return undefined;
      });
      await device.boot();
    } catch (error) {
      // A device that cannot come up (socat missing, port taken) leaves nothing bound behind.
      await device.stop().catch(() => undefined);
      throw error;
    }
    return device;
  }

  get publicKeyPem(): string {
    return this.options.publicKeyPem;
  }

  get maxBlockSize(): number {
    return this.options.maxBlockSize;
  }

  get maxInFlight(): number {
    return this.options.maxInFlight;
  }

  get qBlock1MaxPayloads(): number {
    return this.options.qBlock1MaxPayloads;
  }

  state(): DeviceState {
    return this.store.snapshot();
  }

  async rebootAfterResponse(): Promise<void> {
    this.pending = 'about to reboot';
    void this.inBackground(async () => {
      await this.afterResponse();
      await this.reboot({ powerLoss: false });
    });
  }

  async applyAfterResponse(header: FirmwareImageHeader): Promise<void> {
    this.pending = 'applying firmware';
    void this.inBackground(async () => {
      await this.afterResponse();
      this.firmware.markApplying();
      if (this.faults.takePowerCycleDuringApply()) {
        // Halfway through the install: the old bank still boots, the staged image stays received.
        await sleep(this.options.applyMs / 2);
        await this.reboot({ powerLoss: true });
        return;
      }
      await sleep(this.options.applyMs);
      await this.firmware.applied(header);
      await this.reboot({ powerLoss: false });
    });
  }

  busy(): { what: string; seconds: number } | null {
    if (this.pending === null) return null;
    return { what: this.pending, seconds: (this.options.applyMs + this.options.rebootMs) / 1000 };
  }

  pullCable(): void {
    void this.unplug();
    this.replugTimer = setTimeout(() => void this.plug(), this.faults.replugAfterMs);
  }

  stall(ms: number): void {
    this.link.hold(ms);
  }

  async unplug(): Promise<void> {
    this.plugged = false;
    await this.syncLink();
  }

  async plug(): Promise<void> {
    this.plugged = true;
    await this.syncLink();
  }

  /** Power off and on: RAM (out-of-order blocks, a half-received configuration) is lost. */
  async powerCycle(): Promise<void> {
    await this.reboot({ powerLoss: true });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.safety.stop();
    await this.control?.close();
    clearTimeout(this.notifyTimer);
    clearTimeout(this.replugTimer);
    this.running = false;
    this.server.reset();
    await this.syncLink();
    await this.link.close();
    await this.firmware.close();
    await this.store.save();
  }

  /** The response to the request in hand must reach the host before the device goes away. */
  private async afterResponse(): Promise<void> {
    await this.link.drained();
    await sleep(REBOOT_AFTER_RESPONSE_MS);
  }

  private async reboot(how: { powerLoss: boolean }): Promise<void> {
    if (this.stopped) return;
    this.running = false;
    this.server.reset();
    this.config.reset();
    clearTimeout(this.notifyTimer);
    await this.syncLink();
    if (how.powerLoss) await this.store.reload();
    await this.firmware.rebooted();
    this.pending = null;
    await sleep(this.options.rebootMs);
    if (this.stopped) return;
    await this.boot();
  }

  /** Reboots run beside the request queue, so GETs are still answered while the device applies. */
  private async inBackground(task: () => Promise<void>): Promise<void> {
    try {
      await task();
    } catch (error) {
      if (!this.stopped)
        console.error(`simulator ${this.options.serialNumber}: ${(error as Error).stack ?? String(error)}`);
    }
  }

  private async boot(): Promise<void> {
    await this.safety.rebooted();
    this.store.current.bootId++;
    await this.store.save();
    this.running = true;
    await this.syncLink();
  }

  private syncLink(): Promise<void> {
    const next = this.linkChain.then(async () => {
      const wanted = this.running && this.plugged && !this.stopped;
      if (wanted && !this.link.isUp) {
        // On serial and BLE a new connection is a new peer (docs/device-protocol.md 2): a host that
        // reconnects may start its message ids anywhere and must not get answers cached for the
        // old connection. On UDP the peer is the address, and a replugged cable changes nothing.
        if (this.link.kind !== 'udp') this.server.reset();
        await this.link.up();
      } else if (!wanted && this.link.isUp) await this.link.down();
    });
    // One failed transition (socat could not start) must not wedge every later one.
    this.linkChain = next.catch(() => undefined);
    return next;
  }

  /** RFC 7641 notifications of /fw: every state change, progress at most every 250 ms. */
  private firmwareChanged(stateChanged: boolean): void {
    const now = Date.now();
    if (stateChanged || now - this.lastProgressNotification >= FIRMWARE_STATUS_MIN_INTERVAL_MS) {
      clearTimeout(this.notifyTimer);
      this.notifyTimer = undefined;
      this.lastProgressNotification = now;
      this.server.notify(RESOURCE.firmware, firmwareStatusResponse(this));
      return;
    }
    // A trailing notification, so the last progress before a pause is not lost.
    this.notifyTimer ??= setTimeout(() => {
      this.notifyTimer = undefined;
      this.lastProgressNotification = Date.now();
      this.server.notify(RESOURCE.firmware, firmwareStatusResponse(this));
    }, FIRMWARE_STATUS_MIN_INTERVAL_MS);
  }
}
