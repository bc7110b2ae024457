// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { FirmwareTypeView } from '../../contract/index';
import { FirmwareScreen } from '../../renderer/screens/FirmwareScreen';
import { FakeApi } from './fake-api';
import { mount, settle, type Mounted } from './dom';

let mounted: Mounted | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

const epc: FirmwareTypeView = {
  deviceType: 'EPC',
  latestVersion: '1.1.0',
  cached: [
    { deviceType: 'EPC', version: '1.1.0', sha256: 'a'.repeat(64), size: 66_300, storedAt: '2026-11-27T22:00:00.000Z' },
  ],
  patches: [
    { fromVersion: '1.0.0', toVersion: '1.1.0', size: 8_100 },
    { fromVersion: null, toVersion: '1.1.0', size: 9_000 },
  ],
  latestCached: true,
  error: null,
};

describe('FirmwareScreen', () => {
  it('lists the patches the cache keeps beside the bundles, and says nothing of patches where there are none', async () => {
    new FakeApi()
      .answer('firmware.overview', [epc, { ...epc, deviceType: 'NSCP', cached: [], patches: [], latestCached: false }])
      .install();
    mounted = await mount(<FirmwareScreen />);
    await settle();
    const cards = [...mounted.container.querySelectorAll('.firmware-card')];
    expect(cards.map((c) => c.querySelector('h2')?.textContent)).toEqual(['EPC', 'NSCP']);
    expect(cards[0]!.textContent).toContain('Patches for devices on an older release');
    expect(cards[0]!.textContent).toContain('1.0.0 → 1.1.0');
    expect(cards[0]!.textContent).toContain('a release not cached → 1.1.0');
    expect(cards[1]!.textContent).not.toContain('Patches');
  });
});
