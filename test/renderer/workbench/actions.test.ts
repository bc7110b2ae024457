import { describe, expect, it } from 'vitest';
import type { AttachedDeviceView } from '../../../contract/index';
import { actionOffers } from '../../../renderer/workbench/actions';
import { attachedDevice } from '../../fixtures/attached-device';

function device(
  serialNumber: string,
  change: { inConfiguration?: boolean; upToDate?: boolean } = {},
): AttachedDeviceView {
  const { inConfiguration = true, upToDate = false } = change;
  return attachedDevice(serialNumber, {
    firmwareVersion: upToDate ? '1.1.0' : '1.0.0',
    needs: {
      firmware: { needed: !upToDate, latestVersion: '1.1.0', reason: null },
      configuration: {
        needed: inConfiguration,
        syncId: null,
        reason: null,
        blocked: inConfiguration
          ? null
          : {
              code: 'DEVICE_NOT_IN_CONFIGURATION',
              reason: `${serialNumber} is in no configuration: add it in Configurations`,
            },
      },
    },
  });
}

const offer = (devices: AttachedDeviceView[], action: string) =>
  actionOffers(devices).find((o) => o.action === action)!;

describe('Workbench actions offered only where they can succeed', () => {
  it('turns "Apply configuration" and "Both" off for a device in no configuration, with the reason', () => {
    const chosen = [device('EPC000101', { inConfiguration: false })];
    expect(offer(chosen, 'both').disabledReason).toBe('EPC000101 is in no configuration: add it in Configurations');
    expect(offer(chosen, 'configuration').disabledReason).toBe(
      'EPC000101 is in no configuration: add it in Configurations',
    );
    expect(offer(chosen, 'firmware').disabledReason).toBeNull();
  });

  it('names every blocked device of a mixed selection', () => {
    const chosen = [
      device('EPC000101', { inConfiguration: false }),
      device('EPC000102'),
      device('EPC000103', { inConfiguration: false }),
    ];
    expect(offer(chosen, 'both').disabledReason).toBe(
      'EPC000101 is in no configuration: add it in Configurations; EPC000103 is in no configuration: add it in Configurations',
    );
  });

  it('offers "Verify firmware" for devices already up to date, "Update firmware" otherwise', () => {
    expect(offer([device('EPC000101', { upToDate: true })], 'firmware').label).toBe('Verify firmware');
    expect(offer([device('EPC000101', { upToDate: true }), device('EPC000102')], 'firmware').label).toBe(
      'Update firmware',
    );
    expect(offer([], 'firmware')).toMatchObject({
      label: 'Update firmware',
      disabledReason: 'Select one or more devices first.',
    });
  });
});
