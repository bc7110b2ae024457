import type { FirmwareImageHeader } from '../../domain/files/firmware-image';
import type { ReceivedRequest, ResourceResponse } from '../coap/types';
import type { DeviceFaults } from '../faults';
import type { ConfigUpload } from './config-upload';
import type { FirmwareUpdate } from './firmware-update';
import type { StateStore } from './state';

/** What resources see of the device they belong to. */
export interface DeviceContext {
  readonly store: StateStore;
  readonly firmware: FirmwareUpdate;
  readonly config: ConfigUpload;
  readonly faults: DeviceFaults;
  /** The service's root key (SPKI PEM), given at manufacture: it certifies the organization keys that sign files. */
  readonly publicKeyPem: string;
  readonly maxBlockSize: number;
  readonly maxInFlight: number;
  /** Blocks in one Q-Block1 payload set (docs/device-protocol.md 2.2). */
  readonly qBlock1MaxPayloads: number;
  /** Once the response is out: reboot (the link goes away and comes back). Returns at once. */
  rebootAfterResponse(): Promise<void>;
  /** Once the 2.04 of /fw/apply is out: install the image and reboot into it (or lose power). Returns at once. */
  applyAfterResponse(header: FirmwareImageHeader): Promise<void>;
  /** Non-null while requests that change the device get 5.03 BUSY (applying, about to reboot). */
  busy(): { what: string; seconds: number } | null;
  /** Fault injection: the cable comes out now, the request in hand is lost. */
  pullCable(): void;
  /** Fault injection: nothing moves for `ms`. */
  stall(ms: number): void;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type ResourceHandler = (
  request: ReceivedRequest,
  device: DeviceContext,
) => Promise<ResourceResponse | undefined>;

export interface Resource {
  path: string;
  /** RFC 6690 target attributes after the link, e.g. ';ct=60;obs'. */
  linkAttributes: string;
  methods: Partial<Record<Method, ResourceHandler>>;
}
