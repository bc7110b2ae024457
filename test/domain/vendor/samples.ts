import type { Scm2Input } from '../../../domain/vendor/scm2';

/** An EPC on Ethernet with one Ethernet peer and CAN, as FORT Manager would write it. */
export function epcEthernetScm2(): Scm2Input {
  return {
    SAFE: { ioDirection: 'Out', safetyTimeout: 500, safetyRate: 50, deviceId: 2, careId: [1, 7] },
    NET: {
      blue0: null,
      ism0: null,
      eth0: {
        ip4: '192.168.3.10',
        netmask4: '255.255.255.0',
        gateway4: '192.168.3.1',
        nameservers4: ['192.168.3.1'],
        isDHCP: false,
      },
      wlan0: null,
      can0: { bitrate: 250, mode: 'j1939' },
      peers: {
        '1': {
          name: 'LIFT 1',
          deviceId: 1,
          deviceType: 'EPC',
          blue0: null,
          ism0: null,
          eth0: { ip4: '192.168.3.11' },
          wlan0: null,
        },
      },
    },
  };
}

/** An SRC Pro (FRC family) on the ISM radio with two machines. */
export function frcIsmScm2(): Scm2Input {
  return {
    SAFE: { ioDirection: 'In', safetyTimeout: 250, safetyRate: 25, deviceId: 1, careId: [2] },
    NET: {
      ism0: { radio_id: 7, network_id: 40, txpwr: -5, txChannel: 12, connMode: 'TDMA-Base' },
      peers: {
        '2': { name: 'MOWER', deviceId: 3, deviceType: 'EPC', ism0: 9 },
        '1': { name: 'TRUCK', deviceId: 2, deviceType: 'EPC', ism0: 8 },
      },
    },
  };
}
