import { describe, expect, it } from 'vitest';
import { runningValues } from '../../../domain/vendor/running-values';
import { parseScm2 } from '../../../domain/vendor/scm2';
import { scm2FromConfiguration } from '../../../domain/vendor/scm2-from-configuration';
import { CODE, getOption, OPTION } from '../../../main/devices/coap';
import { decodeVendorValue } from '../../../protocol/vendor';
import { uniqueSerial, useScratchDir } from '../../fixtures/scratch';
import { configContent, signedConfigFile } from '../helpers/fixtures';
import { fsUpload, getWithQuery, postBlockwise, startVendorSession, text, type VendorSession } from './helpers';

/**
 * The file the service serves (layout 3: the vendor's secure-config map with our signed content
 * inside config-data) is taken by the simulated vendor devices as the vendor's tool sends it, and
 * they then run what running-values says for its scm2.
 */
const scratch = useScratchDir('vendor-service-file');

async function readBack(
  session: VendorSession,
  family: 'FRC' | 'EPC',
  scm2: ReturnType<typeof scm2FromConfiguration>,
): Promise<void> {
  for (const value of runningValues(parseScm2(scm2), family)) {
    const [path, query] = value.path.split('?');
    const answer =
      query === undefined ? await session.client.get(path!) : await getWithQuery(session.client, path!, query);
    expect([
      value.path,
      decodeVendorValue(value.path, family, answer.payload, getOption(answer, OPTION.CONTENT_FORMAT)?.[0]),
    ]).toEqual([value.path, value.expected]);
  }
}

describe('the service’s configuration file on simulated vendor devices', () => {
  it('an SRC Pro on ISM takes it as secureConfig.cbor', async () => {
    const serial = uniqueSerial('SRCP');
    const session = await startVendorSession(scratch.dir, { deviceType: 'SRCP', serialNumber: serial });
    try {
      const content = configContent(serial, 'SRCP', {
        device: { deviceConfigurationType: 'Sender', commInterface: 'ISM' },
        peers: [
          { serialNumber: 'EPC000101', deviceType: 'EPC', deviceConfigurationType: 'Receiver', commInterface: 'ISM' },
        ],
        safety: { timeoutConfiguration: '500ms', ismTxChannel: 3, ismNetworkId: 12, ismTxPower: 'High' },
      });
      const final = await fsUpload(session.client, 'secureConfig.cbor', signedConfigFile(content));
      expect([final.code, text(final)]).toEqual([CODE.CHANGED, '']);
      expect(session.device.state().config?.syncId).toBe(content.syncId);
      await readBack(session, 'FRC', scm2FromConfiguration(content));
      expect(text(await session.client.get('cfg/setup/ism/ownAddr'))).toMatch(/^12,\d+,0$/);
    } finally {
      await session.close();
    }
  });

  it('an EPC on Ethernet takes it at cfg/all', async () => {
    const serial = uniqueSerial('EPC');
    const session = await startVendorSession(scratch.dir, { deviceType: 'EPC', serialNumber: serial });
    try {
      const content = configContent(serial, 'EPC', {
        device: {
          deviceConfigurationType: 'Receiver',
          commInterface: 'Ethernet',
          ipAddress: '10.0.0.5',
          ethNetmask: '255.255.255.0',
        },
        peers: [
          {
            serialNumber: 'EPC000102',
            deviceType: 'EPC',
            deviceConfigurationType: 'Sender',
            commInterface: 'Ethernet',
            ipAddress: '10.0.0.6',
          },
        ],
        safety: { timeoutConfiguration: '1000ms', canKBitrate: 'BITRATE_250000', canMode: 'j1939' },
      });
      const final = (
        await postBlockwise(session.client, 'cfg/all', signedConfigFile(content), {
          blockSize: 1024,
          contentFormat: 60,
        })
      ).at(-1)!;
      expect([final.code, text(final)]).toEqual([CODE.CHANGED, 'Configuration applied']);
      expect(session.device.state().config?.syncId).toBe(content.syncId);
      await readBack(session, 'EPC', scm2FromConfiguration(content));
      expect(JSON.parse(text(await session.client.get('cfg/net/eth0/port0/ip')))).toBe('10.0.0.5/24');
      expect(JSON.parse(text(await session.client.get('cfg/sf/smcu/global/timeoutMs')))).toBe(1000);
      expect(JSON.parse(text(await session.client.get('cfg/net/can0/canService')))).toBe('j1939');
    } finally {
      await session.close();
    }
  });
});
