import { PacedChannel } from '../wire/paced-channel';
import type { WireModel } from '../wire/models';
import { waitForDrain } from './drain';
import type { MessageReceiver } from './link';

/**
 * What a link with one wire model both ways shares (the pty and UDP links): a paced channel in
 * each direction, the receiver of intact messages, and whether the link is up. A subclass says
 * what crossing the wire means: `arrive` on the device's side, `leave` on the host's.
 */
export abstract class PacedLink<Item extends { length: number }> {
  readonly wire: { inbound: WireModel; outbound: WireModel };
  protected receiver: MessageReceiver = () => undefined;
  protected readonly inbound: PacedChannel<Item>;
  protected readonly outbound: PacedChannel<Item>;
  protected up_ = false;

  protected constructor(model: WireModel) {
    this.wire = { inbound: model, outbound: model };
    this.inbound = new PacedChannel<Item>(model, (item) => this.arrive(item));
    this.outbound = new PacedChannel<Item>(model, (item) => this.leave(item));
  }

  /** An item from the host has crossed the wire to the device. */
  protected abstract arrive(item: Item): void;
  /** An item from the device has crossed the wire to the host. */
  protected abstract leave(item: Item): void;

  get isUp(): boolean {
    return this.up_;
  }

  drained(): Promise<void> {
    return waitForDrain(this.outbound);
  }

  hold(ms: number): void {
    this.inbound.hold(ms);
    this.outbound.hold(ms);
  }

  /** What was on the wire either way is lost (unplugged, rebooting). */
  protected clearWire(): void {
    this.inbound.clear();
    this.outbound.clear();
  }
}
