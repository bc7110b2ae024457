// @vitest-environment happy-dom
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigurationDeviceView, ConfigurationStatusView } from '../../contract/index';
import { recordedDeviceSettings } from '../../domain/configuration-record';
import {
  API_KEY_ROLES,
  CONFIGURATION_SORT_OPTIONS,
  DEPLOY_STATUSES,
  ISM_TX_POWERS,
  SORT_DIRECTIONS,
  TEMPLATE_SORT_BY,
  USER_ROLES,
  USER_SORT_OPTIONS,
} from '../../domain/enums';
import { CATALOGS, PSEUDO_OPEN, createTranslator } from '../../domain/i18n/index.js';
import { validateConfigurationSettings } from '../../domain/rules/configuration-settings';
import { VIOLATION_CODES, type Violation } from '../../domain/violations';
import { violationText } from '../../renderer/components/violation-text';
import { ConfigurationDesigner } from '../../renderer/designer/ConfigurationDesigner';
import { DeviceEditor } from '../../renderer/designer/DeviceEditor';
import { I18nProvider } from '../../renderer/i18n/I18nProvider';
import { useLanguage } from '../../renderer/i18n/language';
import { ApiKeysScreen } from '../../renderer/screens/ApiKeysScreen';
import { ConfigurationsScreen } from '../../renderer/screens/ConfigurationsScreen';
import { DevicesScreen } from '../../renderer/screens/DevicesScreen';
import { FirmwareScreen } from '../../renderer/screens/FirmwareScreen';
import { OutboxScreen } from '../../renderer/screens/OutboxScreen';
import { PortGlobsForm } from '../../renderer/screens/PortGlobsForm';
import { SignInScreen } from '../../renderer/screens/SignInScreen';
import { TemplatesScreen } from '../../renderer/screens/TemplatesScreen';
import { UsersScreen } from '../../renderer/screens/UsersScreen';
import { WorkbenchScreen } from '../../renderer/screens/WorkbenchScreen';
import { StationNotes } from '../../renderer/station/StationNotes';
import { stationNoteText } from '../../domain/station-note';
import { ConfigurationChanges } from '../../renderer/workbench/ConfigurationChanges';
import { configurationDiff } from '../../domain/configuration-diff';
import { fieldLabel } from '../../domain/field-labels';
import { useNavigation } from '../../renderer/stores/navigation';
import { useOutbox } from '../../renderer/stores/outbox';
import { useSession } from '../../renderer/stores/session';
import { byLabel, click, mount, settle, typeInto, type Mounted } from './dom';
import { FakeApi } from './fake-api';
import { session } from './session-fixture';
import { configurationView } from './configuration-fixture';

/**
 * Issue 29: the designer and the other screens in the reader's language. Keys the screens build
 * at run time (a status, a role, a sort, a violation code) exist; the screens speak German and
 * Chinese when asked; a violation the domain words in English is said by its code, naming the
 * field and the device in the reader's words; and under the pseudo-locale every word the designer
 * shows comes from a catalog, but data (serial numbers, names, addresses) is marked translate="no".
 */

let view: Mounted | null = null;
beforeEach(() => {
  window.localStorage.clear();
  useSession.setState({ session: session('Admin'), busy: false, error: null });
});
afterEach(() => {
  view?.unmount();
  view = null;
  useLanguage.setState({ system: 'en', chosen: null, fromAddress: null });
});

function speak(language: 'en' | 'de' | 'zh' | 'en-XA'): void {
  useLanguage.setState({ system: 'en', chosen: null, fromAddress: language });
}

/** EPC000101 one firmware behind, as the Devices screen lists it; with the core's findings when given. */
function behindDevice(findings?: readonly { kind: 'firmwareBehind'; version: string; expected: string }[]) {
  return {
    serialNumber: 'EPC000101',
    name: 'Crane 2 receiver',
    deviceType: 'EPC',
    firmwareVersion: '1.0.0',
    configurationName: 'Line 3',
    deployStatus: 'Outdated',
    deviceImage: null,
    hasImage: false,
    sync: {
      state: 'behind',
      text: 'firmware behind (device 1.0.0, service expects 1.1.0)',
      ...(findings ? { findings } : {}),
      expectedFirmwareVersion: '1.1.0',
      lastObservedAt: '2026-01-02T00:00:00.000Z',
    },
    commissioning: { state: 'untested', missing: ['function test'] },
  };
}

/** The element in the language, inside the app's i18n provider. */
function mountIn(language: Parameters<typeof speak>[0], element: ReactElement): ReturnType<typeof mount> {
  speak(language);
  return mount(<I18nProvider>{element}</I18nProvider>);
}

const device = (
  serialNumber: string,
  deviceType: 'SRCP' | 'EPC',
  settings: Parameters<typeof recordedDeviceSettings>[0],
): ConfigurationDeviceView =>
  ({ serialNumber, deviceType, ...recordedDeviceSettings(settings) }) as ConfigurationDeviceView;

const lineThree = configurationView({
  ismTxPower: 'High',
  ismTxChannel: 5,
  canMode: 'none',
  devices: [
    device('SRCP000101', 'SRCP', { deviceConfigurationType: 'Sender', commInterface: 'ISM' }),
    device('EPC000101', 'EPC', { deviceConfigurationType: 'Receiver', commInterface: 'ISM,Ethernet' }),
  ],
});
const incomplete: ConfigurationStatusView = {
  complete: false,
  violations: [
    {
      code: 'IP_ADDRESS_MISSING',
      field: 'devices.EPC000101.ipAddress',
      message:
        'Device EPC000101 uses Ethernet but has no IP address: set one, or set the configuration’s starting IP address so one is assigned.',
    },
  ],
  warnings: [],
  devices: [],
};

function installDesignerApi(): void {
  new FakeApi()
    .answer('configurations.get', lineThree)
    .answer('configurations.status', incomplete)
    .answer('templates.list', [])
    .install();
}

describe('keys the screens build at run time', () => {
  const screens = CATALOGS.en.screens;
  const designer = CATALOGS.en.designer;
  it.each([
    ...DEPLOY_STATUSES.map((s) => `devices.deploy.${s}`),
    ...['in-sync', 'behind', 'drift', 'unconfigured', 'unknown'].map((s) => `devices.sync.${s}`),
    ...['commissioned', 'not-commissioned', 'parameters-differ'].map((s) => `devices.commissioning.${s}`),
    ...['commissioned', 'not-commissioned', 'parameters-differ', 'untested', 'unverified'].map(
      (s) => `devices.commissioning.detail.${s}`,
    ),
    ...['configuration apply', 'parameter verification', 'function test'].map((s) => `devices.commissioning.step.${s}`),
    ...CONFIGURATION_SORT_OPTIONS.map((s) => `configurations.sort.${s}`),
    ...USER_SORT_OPTIONS.map((s) => `users.sort.${s}`),
    ...[...new Set([...USER_ROLES, ...API_KEY_ROLES])].map((r) => `role.${r}`),
    ...TEMPLATE_SORT_BY.map((s) => `templates.sort.${s}`),
    ...SORT_DIRECTIONS.map((s) => `templates.direction.${s}`),
  ])('screens:%s', (key) => {
    expect(screens[key], `domain/i18n/locales/en/screens.json "${key}"`).toBeDefined();
  });

  it.each(ISM_TX_POWERS.map((p) => `option.power.${p}`))('designer:%s', (key) => {
    expect(designer[key]).toBeDefined();
  });

  it('every violation the designer catalog translates is a code the domain emits', () => {
    const codes = Object.keys(designer)
      .filter((key) => key.startsWith('violation.'))
      .map((key) => key.slice('violation.'.length));
    expect(codes.length).toBeGreaterThan(40);
    expect(codes.filter((code) => !(VIOLATION_CODES as readonly string[]).includes(code))).toEqual([]);
  });
});

describe('violations in the reader’s language', () => {
  const [notInRegion] = validateConfigurationSettings({ ismTxChannel: 5 }, { region: 'EU', deviceTypes: [] });

  it('English keeps the domain’s own message, which says more', () => {
    expect(notInRegion).toBeDefined();
    expect(violationText(notInRegion!, createTranslator('en'))).toBe(notInRegion!.message);
  });

  it('German says it by its code', () => {
    const text = violationText(notInRegion!, createTranslator('de'));
    expect(notInRegion!.code).toBe('ISM_CHANNEL_NOT_ALLOWED_IN_REGION');
    expect(text).toBe(CATALOGS.de.designer['violation.ISM_CHANNEL_NOT_ALLOWED_IN_REGION']);
    expect(text).not.toBe(notInRegion!.message);
  });

  it('names the field in the reader’s words, and the device a configuration rule is about', () => {
    const required: Violation = {
      code: 'REQUIRED',
      field: 'devices.EPC000101.ismTxPower',
      message: 'ISM transmit power is required.',
    };
    expect(violationText(required, createTranslator('de'))).toBe('ISM-Sendeleistung ist erforderlich.');
    expect(violationText(incomplete.violations[0]!, createTranslator('zh'))).toContain('EPC000101');
    expect(violationText(incomplete.violations[0]!, createTranslator('zh'))).toContain('IP 地址');
    const besideItsForm: Violation = { ...incomplete.violations[0]!, field: 'ipAddress' };
    expect(violationText(besideItsForm, createTranslator('fr'))).toMatch(/^L'appareil utilise Ethernet/);
  });

  it('a code with no translation keeps the message as it came', () => {
    const unknown: Violation = { code: 'LIMIT_TOO_LARGE', field: 'limit', message: 'limit is too large.' };
    expect(violationText(unknown, createTranslator('de'))).toBe('limit is too large.');
  });
});

describe('the designer in German and in Chinese', () => {
  it('German: headings, labels, choices, the status and the form’s own messages', async () => {
    installDesignerApi();
    view = await mountIn('de', <ConfigurationDesigner id={lineThree.id} />);
    await settle();
    const text = view.container.textContent ?? '';
    expect(text).toContain('← Alle Konfigurationen');
    expect(text).toContain('Geräte in dieser Konfiguration');
    expect(text).toContain('Nicht vollständig');
    // The service's English verdict, said by its code, with the device it is about.
    expect(text).toContain('Gerät EPC000101 verwendet Ethernet oder Wifi, hat aber keine IP-Adresse');
    // The roles as the domain names them in German; the system picture's link in German.
    expect(text).toContain('Empfänger');
    expect(view.container.querySelector('[data-testid="topology-canvas"]')?.getAttribute('aria-label')).toContain(
      'SRCP000101 zu EPC000101 über ISM-Kanal 5',
    );
    // Fields labelled with the domain's German words; a choice list in German.
    const power = byLabel(view.container, 'ISM-Sendeleistung') as unknown as HTMLSelectElement;
    expect([...power.options].map((o) => o.textContent)).toEqual(['Niedrig', 'Mittel', 'Hoch']);
    // The form's own check, in German with what was typed; then the domain's rule, said by its code.
    await typeInto(byLabel(view.container, 'ISM-Kanal'), 'fünf');
    await settle();
    expect(view.container.textContent).toContain('ISM-Kanal muss eine ganze Zahl sein, nicht „fünf“.');
    await typeInto(byLabel(view.container, 'ISM-Kanal'), '40');
    await settle();
    expect(view.container.textContent).toContain(CATALOGS.de.designer['violation.ISM_CHANNEL_OUT_OF_RANGE']);
    expect(view.container.textContent).toContain('1 Feld zu korrigieren');
    expect(view.container.textContent).toContain('Ungespeicherte Änderungen');
  });

  it('Chinese: the header note counts in Chinese and dates follow the locale', async () => {
    installDesignerApi();
    view = await mountIn('zh', <ConfigurationDesigner id={lineThree.id} />);
    await settle();
    const note = view.container.querySelector('.screen-header__note')?.textContent ?? '';
    expect(note).toContain('2 台设备');
    expect(note).toContain('1 个问题待修正');
    expect(note).toContain('2026');
    expect(view.container.querySelector('h1')?.getAttribute('translate')).toBe('no');
  });
});

/** Text a person sees that is neither from a catalog (pseudo-localized) nor marked as data. */
function untranslated(root: HTMLElement): string[] {
  const found: string[] = [];
  const isWords = (text: string) => /\p{L}{2,}/u.test(text) && !text.includes(PSEUDO_OPEN);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    const parent = node.parentElement;
    // Dates and times are Intl's, in <time>; data is marked translate="no".
    if (!parent || parent.closest('[translate="no"], time, data, style, script') || !isWords(text)) continue;
    found.push(text.trim());
  }
  for (const element of root.querySelectorAll('[aria-label], [title], [placeholder]')) {
    if (element.closest('[translate="no"], time, data')) continue;
    for (const name of ['aria-label', 'title', 'placeholder']) {
      const value = element.getAttribute(name);
      if (value && isWords(value)) found.push(`${name}="${value}"`);
    }
  }
  return found;
}

describe('under the pseudo-locale', () => {
  it('every word the designer shows comes from a catalog, and data is marked translate="no"', async () => {
    installDesignerApi();
    view = await mountIn('en-XA', <ConfigurationDesigner id={lineThree.id} />);
    await settle();
    expect(view.container.textContent).toContain(PSEUDO_OPEN);
    expect(untranslated(view.container)).toEqual([]);
  });

  it('so does the devices screen', async () => {
    new FakeApi()
      .answer('devices.list', {
        items: [behindDevice()] as never,
        page: 1,
        limit: 15,
        totalCount: 1,
      })
      .install();
    view = await mountIn('en-XA', <DevicesScreen />);
    await settle();
    expect(view.container.textContent).toContain('EPC000101');
    expect(untranslated(view.container)).toEqual([]);
  });

  it("says why a device is behind in the reader's language when the core sends what it found", async () => {
    new FakeApi()
      .answer('devices.list', {
        items: [behindDevice([{ kind: 'firmwareBehind', version: '1.0.0', expected: '1.1.0' }])] as never,
        page: 1,
        limit: 15,
        totalCount: 1,
      })
      .install();
    view = await mountIn('de', <DevicesScreen />);
    await settle();
    const why = view.container.querySelector('[data-testid="registry-sync"] .registry-sync__why')?.textContent;
    expect(why).toBe(createTranslator('de').t('domain:sync.firmwareBehind', { version: '1.0.0', expected: '1.1.0' }));
    expect(why).not.toContain('service expects');
  });

  it("says on the Workbench why a role may not put files on devices, in the reader's language", async () => {
    const viewer = session('Operator');
    if (viewer.status !== 'signedIn') throw new Error('fixture');
    useSession.setState({
      session: {
        ...viewer,
        capabilities: {
          ...viewer.capabilities,
          'files.download': {
            allowed: false,
            reason: "Your key's role Operator may not put firmware and configuration files on devices; Admin may.",
          },
        },
      },
      busy: false,
      error: null,
    });
    new FakeApi().answer('workbench.start', []).install();
    view = await mountIn('de', <WorkbenchScreen />);
    await settle();
    const said = createTranslator('de').t('screens:capability.refused.files.download', {
      role: createTranslator('de').t('screens:role.Operator'),
    });
    expect(view.container.textContent).toContain(said);
    expect(view.container.textContent).not.toContain('may not put firmware');
  });

  it("says what an apply would change in the reader's language: names and words, values as they are", async () => {
    const changes = configurationDiff(
      {
        blank: false,
        configurationId: 'c1',
        device: { can0Id: 1 },
        peers: [{ serialNumber: 'SRCP000101', deviceType: 'SRCP', deviceConfigurationType: 'Sender' }],
        safety: { ismTxChannel: 12 },
      },
      { blank: false, configurationId: 'c1', device: {}, peers: [], safety: { ismTxChannel: 14 } },
    );
    new FakeApi()
      .answer('workbench.configurationChanges', {
        serialNumber: 'EPC000101',
        appliedSyncId: '11111111-1111-4111-8111-111111111111',
        syncId: '22222222-2222-4222-8222-222222222222',
        appliedFrom: 'kept copy',
        inSync: false,
        changes,
      })
      .install();
    view = await mountIn('de', <ConfigurationChanges serialNumber="EPC000101" version="1" />);
    await settle();
    const rows = [...view.container.querySelectorAll('tr[data-field]')].map((row) =>
      [...row.querySelectorAll('td')].map((cell) => cell.textContent),
    );
    const de = createTranslator('de');
    expect(rows).toEqual([
      [fieldLabel('ismTxChannel', de), '12', '14'],
      [fieldLabel('can0Id', de), '1', 'nicht gesetzt'],
      ['Partnergerät SRCP000101 entfernt', 'SRCP Sender', 'nicht gesetzt'],
    ]);
  });

  it("says on the Station why a device was refused, in the reader's language", async () => {
    const why = { kind: 'notInConfiguration', serial: 'EPC000999', configuration: 'Line 3' } as const;
    view = await mountIn(
      'zh',
      <StationNotes
        notes={[
          {
            kind: 'refused',
            serialNumber: 'EPC000999',
            link: 'serial:/dev/ttyACM2',
            message: stationNoteText(why),
            why,
            at: '2026-01-02T08:00:00.000Z',
          },
        ]}
      />,
    );
    const text = view.container.querySelector('[data-testid="station-notes"]')?.textContent ?? '';
    expect(text).toContain(stationNoteText(why, createTranslator('zh')));
    expect(text).not.toContain('is not in the configuration');
  });

  const at = '2026-01-02T08:00:00.000Z';
  const screens: [string, () => ReactElement, (api: FakeApi) => FakeApi][] = [
    ['sign-in', () => <SignInScreen />, (api) => api],
    [
      'configurations',
      () => <ConfigurationsScreen />,
      (api) =>
        api.answer('configurations.list', {
          items: [{ ...lineThree, devices: [] }] as never,
          page: 1,
          limit: 15,
          totalCount: 1,
        }),
    ],
    [
      'firmware',
      () => <FirmwareScreen />,
      (api) =>
        api.answer('firmware.overview', [
          {
            deviceType: 'EPC',
            latestVersion: '1.1.0',
            cached: [{ deviceType: 'EPC', version: '1.1.0', sha256: 'a'.repeat(64), size: 66_300, storedAt: at }],
            patches: [{ fromVersion: null, toVersion: '1.1.0', size: 9_000 }],
            latestCached: true,
            error: null,
          },
          { deviceType: 'NSCP', latestVersion: '2.0.0', cached: [], patches: [], latestCached: false, error: null },
        ]),
    ],
    [
      'outbox',
      () => <OutboxScreen />,
      (api) =>
        api
          .answer('outbox.get', {
            entries: [
              {
                id: 'o1',
                kind: 'firmware',
                serialNumber: 'EPC000101',
                serviceUrl: 'http://127.0.0.1',
                orgId: 'org',
                state: 'pending',
                createdAt: at,
                attempts: 2,
                lastError: 'service unreachable',
                nextAttemptAt: null,
                summary: 'firmware 1.1.0 success',
              },
            ],
            pendingCount: 1,
            rejectedCount: 0,
            oldestPendingSince: at,
            totalCount: 1,
            offset: 0,
            limit: 100,
            nextCursor: null,
          })
          .answer('logs.recent', []),
    ],
    [
      'users',
      () => <UsersScreen />,
      (api) =>
        api.answer('users.list', {
          items: [
            {
              id: 'u1',
              email: 'ana@example.com',
              firstName: 'Ana',
              lastName: 'Ruiz',
              userRole: 'Operator',
              isActive: true,
              lastActivityAt: at,
              createdAt: at,
            },
          ] as never,
          page: 1,
          limit: 15,
          totalCount: 1,
        }),
    ],
    [
      'API keys',
      () => <ApiKeysScreen />,
      (api) =>
        api.answer('apiKeys.list', [
          { name: 'line-3', role: 'Operator', key: '****abcd', createdAt: at, lastUsedAt: null },
        ] as never),
    ],
    [
      'network templates',
      () => <TemplatesScreen />,
      (api) =>
        api.answer('templates.list', [
          {
            id: 't1',
            ipNetworkTemplateName: 'Hall 2',
            commInterface: 'Wifi',
            netmask: '255.255.255.0',
            gatewayIpAddress: '10.0.0.1',
            nameservers: ['10.0.0.2'],
            ssid: 'hall2',
            passwordSet: true,
            lastEditedAt: at,
          },
        ] as never),
    ],
    [
      'port patterns',
      () => <PortGlobsForm />,
      (api) => api.answer('workbench.portGlobs', { saved: ['/dev/ttyRS485-*'], fromEnvironment: ['/tmp/sim/pty/*'] }),
    ],
  ];

  it.each(screens)('so does the %s screen', async (_name, screen, answers) => {
    useNavigation.setState({ configurationId: null, deviceToAdd: null });
    useOutbox.setState({ outbox: null, lines: [], sending: false, error: null });
    answers(new FakeApi()).install();
    view = await mountIn('en-XA', screen());
    await settle();
    expect(view.container.textContent).toContain(PSEUDO_OPEN);
    expect(untranslated(view.container)).toEqual([]);
  });
});

describe('a refused action says why in the reader’s language', () => {
  it('English keeps the core’s reason; German says it by the capability and the key’s role', async () => {
    useSession.setState({ session: session('Operator'), busy: false, error: null });
    installDesignerApi();
    view = await mountIn('en', <ConfigurationDesigner id={lineThree.id} />);
    await settle();
    const refusal = () =>
      view!.container.querySelector('.screen-header button[aria-disabled="true"]')?.getAttribute('title');
    expect(refusal()).toBe(
      "Your key's role Operator may not create or change configurations; Admin or ConfigManager may.",
    );
    view.unmount();

    view = await mountIn('de', <ConfigurationDesigner id={lineThree.id} />);
    await settle();
    expect(refusal()).toBe('Die Rolle Bediener Ihres Schlüssels darf Konfigurationen nicht anlegen oder ändern.');
  });
});

describe('open forms under the pseudo-locale', () => {
  it('the add-device form with a device chosen, and the new-template form', async () => {
    new FakeApi()
      .answer('devices.list', {
        items: [{ serialNumber: 'NSCP000101', name: 'Gate 4', deviceType: 'NSCP' }] as never,
        page: 1,
        limit: 30,
        totalCount: 1,
      })
      .answer('templates.list', [])
      .install();
    view = await mountIn(
      'en-XA',
      <DeviceEditor
        mode="add"
        configuration={lineThree}
        device={null}
        region="NA"
        onClose={() => undefined}
        onSaved={() => undefined}
      />,
    );
    await settle();
    const chooser = view.container.querySelector('select[name="serialNumber"]') as HTMLSelectElement;
    await typeInto(chooser, 'NSCP000101');
    await typeInto(view.container.querySelector('select[name="stopCategory"]') as HTMLSelectElement, 'CAT1');
    await settle();
    expect(view.container.querySelector('input[name="cat1StopDelay"]')).not.toBeNull();
    expect(untranslated(view.container)).toEqual([]);
    view.unmount();

    new FakeApi().answer('templates.list', []).install();
    view = await mount(
      <I18nProvider>
        <TemplatesScreen />
      </I18nProvider>,
    );
    await settle();
    await click(view.container.querySelector('.screen-header__actions button')!);
    await typeInto(view.container.querySelector('select[name="commInterface"]') as HTMLSelectElement, 'Wifi');
    await settle();
    expect(view.container.querySelector('form input[name="ssid"]')).not.toBeNull();
    expect(untranslated(view.container)).toEqual([]);
  });
});
