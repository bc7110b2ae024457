import { describe, expect, it } from 'vitest';
import {
  changeText,
  configurationDiff,
  settingValueText,
  type ConfiguredSettings,
} from '../../domain/configuration-diff';
import { fieldLabel } from '../../domain/field-labels';
import { createTranslator } from '../../domain/i18n/index.js';

function settings(overrides: Partial<ConfiguredSettings> = {}): ConfiguredSettings {
  return {
    blank: false,
    configurationId: 'c1',
    device: { deviceConfigurationType: 'Receiver', commInterface: 'ISM', can0Id: 1 },
    peers: [
      { serialNumber: 'SRCP000101', deviceType: 'SRCP', deviceConfigurationType: 'Sender', commInterface: 'ISM' },
    ],
    safety: { ismTxChannel: 12, timeoutConfiguration: '500ms', canKBitrate: 'BITRATE_250000' },
    ...overrides,
  };
}

describe('configurationDiff', () => {
  it('says nothing when the same settings are applied again', () => {
    expect(configurationDiff(settings(), settings())).toEqual([]);
  });

  it('says each changed parameter in plain words with its unit', () => {
    const next = settings({
      safety: { ismTxChannel: 14, timeoutConfiguration: '1000ms', canKBitrate: 'BITRATE_500000' },
    });
    expect(configurationDiff(settings(), next).map((c) => c.text)).toEqual([
      'CAN bitrate 250 kbit/s → 500 kbit/s',
      'ISM channel 12 → 14',
      'Safety timeout 500 ms → 1 s',
    ]);
  });

  it('says a setting that appears or goes away is set or no longer set', () => {
    const next = settings({
      device: { deviceConfigurationType: 'Receiver', commInterface: 'BLE,Ethernet', ipAddress: '10.0.0.5' },
    });
    expect(configurationDiff(settings(), next).map((c) => c.text)).toEqual([
      'CAN 0 id 1 → not set',
      'Communication interface ISM → BLE and Ethernet',
      'IP address not set → 10.0.0.5',
    ]);
  });

  it('names peers that are added, removed or changed', () => {
    const next = settings({
      peers: [
        { serialNumber: 'SRCP000101', deviceType: 'SRCP', deviceConfigurationType: 'Sender', commInterface: 'BLE' },
        {
          serialNumber: 'EPC000102',
          deviceType: 'EPC',
          deviceConfigurationType: 'EStopSender',
          commInterface: 'Ethernet',
          ipAddress: '192.168.50.31',
        },
      ],
    });
    expect(configurationDiff(settings(), next).map((c) => c.text)).toEqual([
      'Peer EPC000102 added (EPC EStopSender over Ethernet at 192.168.50.31)',
      'Peer SRCP000101: Communication interface ISM → BLE',
    ]);
    expect(configurationDiff(next, settings()).map((c) => c.text)[0]).toBe('Peer EPC000102 removed');
  });

  it('treats a device with no known file as getting every setting new', () => {
    const changes = configurationDiff(null, settings());
    expect(changes[0]?.text).toBe('Configuration set');
    expect(changes.map((c) => c.text)).toContain('ISM channel not set → 12');
  });

  it('says a blank file removes the configuration', () => {
    const blank = settings({ blank: true, configurationId: null, device: {}, peers: [], safety: {} });
    expect(configurationDiff(settings(), blank)[0]?.text).toBe(
      'Configuration removed (the device is reset to no configuration)',
    );
  });

  it('never prints a Wifi password', () => {
    const next = settings({ device: { ...settings().device, wifiPassword: 'hunter22' } });
    const texts = configurationDiff(settings(), next).map((c) => c.text);
    expect(texts).toEqual(['Wifi password not set → a password']);
  });

  it('writes values in a technician’s units', () => {
    expect(settingValueText('cat1StopDelay', 1.5)).toBe('1.5 s');
    expect(settingValueText('displayTextPgn', 0xff10)).toBe('0xFF10');
    expect(settingValueText('ossdEnabled', true)).toBe('on');
    expect(settingValueText('approvedSourceAddresses', [0, 3])).toBe('0, 3');
    expect(settingValueText('voltage', 'VOLTAGE_24V')).toBe('24 V');
  });

  it("names a choice as the designer's dropdown does, and keeps a value no label knows", () => {
    expect(settingValueText('canMode', 'canopen')).toBe('CANopen');
    expect(settingValueText('deviceConfigurationType', 'EStopSender')).toBe('E-stop sender');
    expect(settingValueText('inputConfiguration2', 'ESTOP_TYPE_SWITCH')).toBe('E-stop switch');
    expect(settingValueText('canMode', 'profibus')).toBe('profibus');
  });
});

describe('a change in the reader’s language (issue 29)', () => {
  const german = createTranslator('de');
  const next = settings({
    blank: false,
    device: { deviceConfigurationType: 'Receiver', commInterface: 'ISM', wifiPassword: 'secret' },
    peers: [
      { serialNumber: 'SRCP000101', deviceType: 'SRCP', deviceConfigurationType: 'Sender', commInterface: 'BLE' },
      {
        serialNumber: 'EPC000102',
        deviceType: 'EPC',
        deviceConfigurationType: 'Receiver',
        commInterface: 'Ethernet',
        ipAddress: '10.0.0.2',
      },
    ],
    safety: { ismTxChannel: 14, timeoutConfiguration: '500ms', canKBitrate: 'BITRATE_250000' },
  });
  const changes = configurationDiff(settings(), next);

  it('says in English, from its subject, the same line as its text', () => {
    expect(changes.length).toBeGreaterThan(4);
    for (const change of changes) expect(changeText(change)).toBe(change.text);
    const removed = configurationDiff(settings(), settings({ blank: true }))[0]!;
    expect(changeText(removed)).toBe(removed.text);
  });

  it('says each kind of change in German, names and words translated, values kept', () => {
    const said = changes.map((change) => changeText(change, german));
    expect(said).toContain('ISM-Kanal 12 → 14');
    expect(said).toContain('CAN 0 id 1 → nicht gesetzt'.replace('CAN 0 id', fieldLabel('can0Id', german)));
    expect(said).toContain(`${fieldLabel('wifiPassword', german)} nicht gesetzt → ein Passwort`);
    expect(said).toContain('Partnergerät EPC000102 hinzugefügt (EPC Receiver über Ethernet unter 10.0.0.2)');
    expect(said.some((line) => line.startsWith('Partnergerät SRCP000101: '))).toBe(true);
    expect(said.join('\n')).not.toMatch(/\b(not set|a password|Peer|added|over)\b/);
    const removed = configurationDiff(settings(), settings({ blank: true }))[0]!;
    expect(changeText(removed, german)).toBe(
      'Konfiguration entfernt (das Gerät wird auf keine Konfiguration zurückgesetzt)',
    );
  });
});
