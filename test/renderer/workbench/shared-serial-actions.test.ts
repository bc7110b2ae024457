import { describe, expect, it } from 'vitest';
import type { AttachedDeviceView } from '../../../contract/index';
import { sharedSerialReason } from '../../../domain/shared-serial';
import { actionOffers } from '../../../renderer/workbench/actions';
import { attachedDevice } from '../../fixtures/attached-device';

const REAL = 'serial:/dev/real';
const COPY = 'ble:C0:FF:EE:00:01:01';
const REASON = sharedSerialReason('EPC000101', [REAL, COPY]);

function row(serialNumber: string, linkId: string, shared: boolean): AttachedDeviceView {
  return attachedDevice(serialNumber, {
    linkId,
    linkKind: linkId.startsWith('ble:') ? 'ble' : 'serial',
    address: linkId.slice(linkId.indexOf(':') + 1),
    needs: {
      firmware: { needed: true, latestVersion: '1.1.0', reason: null },
      configuration: { needed: true, syncId: null, reason: null, blocked: null },
    },
    sharedSerial: shared ? { links: [REAL, COPY], reason: REASON } : null,
  });
}

describe('Workbench actions on a serial number two attached devices claim', () => {
  it('offers every action disabled, with the reason, when such a row is chosen (alone or among others)', () => {
    for (const chosen of [
      [row('EPC000101', COPY, true)],
      [row('EPC000102', 'serial:/dev/other', false), row('EPC000101', REAL, true)],
    ]) {
      const offers = actionOffers(chosen);
      expect(offers.map((o) => o.disabledReason)).toEqual([REASON, REASON, REASON]);
    }
  });

  it('says the reason once when both rows of the serial are chosen', () => {
    const offers = actionOffers([row('EPC000101', REAL, true), row('EPC000101', COPY, true)]);
    expect(offers[0]!.disabledReason).toBe(REASON);
  });

  it('offers the actions as usual on rows of serial numbers claimed once (the field absent, as from an older core, or null)', () => {
    const { sharedSerial: _absent, ...older } = row('EPC000102', 'serial:/dev/other', false);
    for (const chosen of [[older], [row('EPC000102', 'serial:/dev/other', false)]]) {
      expect(actionOffers(chosen).map((o) => o.disabledReason)).toEqual([null, null, null]);
    }
  });
});
