// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelInput, ChannelResult, RegisteredDeviceRowView } from '../../contract/index';
import { DeviceEditor } from '../../renderer/designer/DeviceEditor';
import { SEARCH_DEBOUNCE_MS } from '../../renderer/components/use-debounced';
import { DevicesScreen } from '../../renderer/screens/DevicesScreen';
import { useNavigation } from '../../renderer/stores/navigation';
import { useSession } from '../../renderer/stores/session';
import { configurationView } from './configuration-fixture';
import { byLabel, messageOf, mount, settle, typeInto, type Mounted } from './dom';
import { FakeApi } from './fake-api';
import { session } from './session-fixture';

/**
 * The Devices screen and the designer's device picker search on the service (issue 30): a search
 * goes once typing pauses, an answer overtaken by a newer search is never shown, and the picker
 * finds a device beyond its first page and keeps the one chosen when the search moves on.
 */

type DeviceList = ChannelResult<'devices.list'>;

const row = (serialNumber: string, deviceType: RegisteredDeviceRowView['deviceType'] = 'EPC') =>
  ({
    serialNumber,
    name: `Device ${serialNumber}`,
    deviceType,
    model: 'Model 1',
    hasImage: false,
    deviceImage: null,
    configurationId: null,
    configurationName: null,
    firmwareVersion: null,
    lastFirmwareApply: null,
    deployStatus: 'NotDeployed',
    deployedSyncId: null,
    lastConfigurationApply: null,
    registeredAt: '2026-01-01T00:00:00.000Z',
    sync: { state: 'unconfigured', text: 'in no configuration', expectedFirmwareVersion: null, lastObservedAt: null },
    commissioning: null,
  }) as RegisteredDeviceRowView;

/** A registry of `count` devices X0000001…: the service's paging and serial-prefix search over it. */
function registry(count: number) {
  const serials = Array.from({ length: count }, (_, i) => `X${String(i + 1).padStart(7, '0')}`);
  return (input: ChannelInput<'devices.list'>): DeviceList => {
    const matches = input.search ? serials.filter((s) => s.startsWith(input.search!)) : serials;
    const page = input.page ?? 1;
    const limit = input.limit ?? 30;
    return {
      items: matches.slice((page - 1) * limit, page * limit).map((s) => row(s, s.endsWith('7') ? 'NSCP' : 'EPC')),
      page,
      limit,
      totalCount: matches.length,
    };
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Longer than the debounce, so the search has gone. */
const afterTyping = () => act(() => pause(SEARCH_DEBOUNCE_MS + 100));
const searchesOf = (api: FakeApi) =>
  api.calls
    .filter((c) => c.channel === 'devices.list')
    .map((c) => (c.input as ChannelInput<'devices.list'>).search ?? '');

let view: Mounted | null = null;
beforeEach(() => {
  useSession.setState({ session: session('Admin'), busy: false, error: null });
});
afterEach(() => {
  view?.unmount();
  view = null;
  useNavigation.setState({ deviceToAdd: null });
});

describe('the Devices screen', () => {
  const shownSerials = () =>
    [...view!.container.querySelectorAll('tr[data-serial]')].map((r) => r.getAttribute('data-serial'));

  it('searches once typing pauses, not once per key', async () => {
    const api = new FakeApi().answer('devices.list', registry(5000)).install();
    view = await mount(<DevicesScreen />);
    await settle();
    expect(shownSerials()).toHaveLength(15);
    const search = byLabel(view.container, 'Search name, serial number, type');
    for (const typed of ['X', 'X0', 'X00', 'X000', 'X0004', 'X00042', 'X000421']) await typeInto(search, typed);
    await afterTyping();
    await settle();
    expect(searchesOf(api)).toEqual(['', 'X000421']);
    expect(shownSerials()).toEqual(Array.from({ length: 10 }, (_, i) => `X000421${i}`));
  });

  it('never lets a slow answer to an older search replace a newer one', async () => {
    const answer = registry(5000);
    let releaseOld: () => void = () => undefined;
    const api = new FakeApi()
      .answer('devices.list', ((input: ChannelInput<'devices.list'>) =>
        input.search === 'X0001'
          ? // The older search's answer arrives last.
            new Promise<DeviceList>((resolve) => (releaseOld = () => resolve(answer(input))))
          : answer(input)) as never)
      .install();
    view = await mount(<DevicesScreen />);
    await settle();
    const search = byLabel(view.container, 'Search name, serial number, type');
    await typeInto(search, 'X0001');
    await afterTyping();
    await typeInto(search, 'X000420');
    await afterTyping();
    await settle();
    expect(searchesOf(api)).toEqual(['', 'X0001', 'X000420']);
    expect(shownSerials()[0]).toBe('X0004200');
    releaseOld();
    await settle();
    expect(shownSerials()).toEqual(Array.from({ length: 10 }, (_, i) => `X000420${i}`));
  });
});

describe("the designer's device picker", () => {
  const mountPicker = () =>
    mount(
      <DeviceEditor
        mode="add"
        configuration={configurationView()}
        device={null}
        region="NA"
        onClose={() => undefined}
        onSaved={() => undefined}
      />,
    );
  const options = () =>
    [...view!.container.querySelectorAll('select[name="serialNumber"] option')]
      .map((o) => o.getAttribute('value'))
      .filter(Boolean);

  it('offers one page of free devices and finds one beyond it by its serial number', async () => {
    const api = new FakeApi().answer('devices.list', registry(5000)).answer('templates.list', []).install();
    view = await mountPicker();
    await settle();
    expect(options()).toHaveLength(30);
    const find = byLabel(view.container, 'Find a device');
    expect(messageOf(find)).toContain('30 of 5,000 free devices');
    await typeInto(find, 'X0004');
    await typeInto(find, 'X000417');
    await afterTyping();
    await settle();
    expect(searchesOf(api)).toEqual(['', 'X000417']);
    expect(api.calls.find((c) => c.channel === 'devices.list')?.input).toMatchObject({ configurableOnly: true });
    expect(options()).toEqual([
      'X0004170',
      'X0004171',
      'X0004172',
      'X0004173',
      'X0004174',
      'X0004175',
      'X0004176',
      'X0004177',
      'X0004178',
      'X0004179',
    ]);

    // Chosen, the device keeps its type (and its form) when the search moves on to others.
    await typeInto(view.container.querySelector('select[name="serialNumber"]') as HTMLSelectElement, 'X0004177');
    await settle();
    expect(view.container.querySelector('select[name="stopCategory"]')).not.toBeNull(); // an NSCP's field
    await typeInto(find, 'X0009');
    await afterTyping();
    await settle();
    expect(options()[0]).toBe('X0004177');
    expect((view.container.querySelector('select[name="serialNumber"]') as HTMLSelectElement).value).toBe('X0004177');
    expect(view.container.querySelector('select[name="stopCategory"]')).not.toBeNull();
  });

  it('says when no free device matches the search', async () => {
    new FakeApi().answer('devices.list', registry(50)).answer('templates.list', []).install();
    view = await mountPicker();
    await settle();
    await typeInto(byLabel(view.container, 'Find a device'), 'Y12');
    await afterTyping();
    await settle();
    expect(options()).toEqual([]);
    expect(view.container.querySelector('select[name="serialNumber"] option')?.textContent).toBe(
      'No free device matches “Y12”',
    );
  });

  it('searches for the device the Workbench sent, so it is there among a million', async () => {
    useNavigation.setState({ deviceToAdd: 'X0004999' });
    const api = new FakeApi().answer('devices.list', registry(5000)).answer('templates.list', []).install();
    view = await mountPicker();
    await settle();
    expect(searchesOf(api)).toEqual(['X0004999']);
    expect((view.container.querySelector('select[name="serialNumber"]') as HTMLSelectElement).value).toBe('X0004999');
    expect(view.container.querySelector('select[name="stopCategory"]')).toBeNull(); // an EPC: no NSCP fields
    expect(view.container.textContent).not.toContain('Choose a device first');
  });
});
