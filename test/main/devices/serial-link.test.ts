// @ts-expect-error binding-mock 10.2.2's package.json "exports" names no types; they are typed below.
import * as untypedMock from '@serialport/binding-mock';
import type * as BindingMock from '../../../node_modules/@serialport/binding-mock/dist/index';
import { SerialPortStream } from '@serialport/stream';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame } from '../../../protocol/framing';
import { SerialLink } from '../../../main/devices/links/serial-link';
import type { SerialPortLike, SerialPortOpener } from '../../../main/devices/links/serial-port';

type MockPortBinding = BindingMock.MockPortBinding;
const MockBinding: typeof BindingMock.MockBinding = (untypedMock as typeof BindingMock).MockBinding;

/** Opens @serialport/binding-mock ports, keeping each port's binding to play the device's side. */
function mockOpener(): { open: SerialPortOpener; bindings: MockPortBinding[] } {
  const bindings: MockPortBinding[] = [];
  const open: SerialPortOpener = async ({ path, baudRate }) => {
    const port = new SerialPortStream({ binding: MockBinding, path, baudRate, autoOpen: false });
    await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
    bindings.push(port.port as MockPortBinding);
    return port as unknown as SerialPortLike;
  };
  return { open, bindings };
}

afterEach(() => MockBinding.reset());

describe('serial link', () => {
  it('writes framed messages and delivers the messages of incoming frames', async () => {
    MockBinding.createPort('/dev/ttyACM7', { record: true });
    const { open, bindings } = mockOpener();
    const link = new SerialLink({ path: '/dev/ttyACM7', openPort: open });
    expect(link.description).toBe('serial:/dev/ttyACM7');
    expect(link.bytesPerSecond).toBe(11520);
    await link.open();
    const received: Uint8Array[] = [];
    link.onMessage((m) => received.push(m));
    link.send(Uint8Array.from([0x40, 1, 0, 1]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(Buffer.compare(bindings[0]!.recording, Buffer.from(encodeFrame(Uint8Array.from([0x40, 1, 0, 1]))))).toBe(0);
    const frame = Buffer.from(encodeFrame(Uint8Array.from([0x60, 0x45, 0, 1])));
    bindings[0]!.emitData(frame.subarray(0, 3));
    bindings[0]!.emitData(Buffer.concat([frame.subarray(3), Buffer.from([0xc0, 0x11, 0x22, 0xc0])]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received.map((m) => [...m])).toEqual([[0x60, 0x45, 0, 1]]);
    expect(link.decoder.stats.badCrc).toBe(1);
    await link.close();
  });

  it('reports a close and opens the same path again', async () => {
    MockBinding.createPort('/dev/ttyACM8');
    const { open } = mockOpener();
    const link = new SerialLink({ path: '/dev/ttyACM8', openPort: open });
    await link.open();
    const closed = new Promise<Error | undefined>((resolve) => link.onClose(resolve));
    await link.close();
    await closed;
    expect(link.isOpen).toBe(false);
    expect(() => link.send(new Uint8Array(4))).toThrow(/closed/);
    await link.open();
    expect(link.isOpen).toBe(true);
    await link.close();
  });

  it('rejects open when the port is not there', async () => {
    const { open } = mockOpener();
    await expect(new SerialLink({ path: '/dev/nothing', openPort: open }).open()).rejects.toThrow();
  });
});
