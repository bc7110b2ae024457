import type { WireModel } from '../wire/models';

import type { LinkKind } from '../../domain/link-kind';

export type { LinkKind };

/** Where a host reaches a device; part of SimulatedDevice.descriptor. */
export interface LinkAddress {
  link: LinkKind;
  /** Serial: the host end of the pty pair. */
  path?: string;
  /** UDP. */
  host?: string;
  port?: number;
  /** BLE: the peripheral's address, aa:bb:cc:dd:ee:ff. */
  bleAddress?: string;
}

/** Called with each intact CoAP message; `peer` tells UDP senders apart ('link' otherwise). */
export type MessageReceiver = (message: Uint8Array, peer: string) => void;

/**
 * The device's side of one link. `up`/`down` are what the host sees as plugging and unplugging
 * (the pty appears and vanishes, UDP answers or stays silent, BLE advertises or disconnects);
 * framing, the wire model and frame faults live behind this interface.
 */
export interface DeviceLink {
  readonly kind: LinkKind;
  /** Host to device and device to host models (BLE: of the current connection). */
  readonly wire: { inbound: WireModel; outbound: WireModel };
  address(): LinkAddress;
  /** Prepares the link (binds the socket, ...) without bringing it up. */
  open(receiver: MessageReceiver): Promise<void>;
  up(): Promise<void>;
  down(): Promise<void>;
  readonly isUp: boolean;
  send(message: Uint8Array, peer: string): void;
  /** Resolves once everything sent so far has crossed the wire. */
  drained(): Promise<void>;
  /** A stalled device: nothing moves in either direction for `ms`. */
  hold(ms: number): void;
  close(): Promise<void>;
}
