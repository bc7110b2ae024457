import { createSocket, type RemoteInfo } from 'node:dgram';
import { decodeMessage, isRequestCode, uriPathOf } from '../../../../../protocol/coap/codec';

/**
 * A UDP relay between the host and a simulated device that writes down the path of every CoAP
 * request passing through: what the device was sent, seen from outside both.
 */
export interface CoapSpy {
  /** `udp:127.0.0.1:PORT` for the host to use instead of the device's own address. */
  link: string;
  /** Uri-Paths of the requests the host sent, in order ('info', 'config', 'fw/data', …). */
  paths: string[];
  close(): Promise<void>;
}

export async function startCoapSpy(devicePort: number, deviceHost = '127.0.0.1'): Promise<CoapSpy> {
  const socket = createSocket('udp4');
  const paths: string[] = [];
  let client: RemoteInfo | undefined;
  socket.on('message', (bytes, from) => {
    if (from.port === devicePort && from.address === deviceHost) {
      if (client) socket.send(bytes, client.port, client.address);
      return;
    }
    client = from;
    try {
      const message = decodeMessage(new Uint8Array(bytes));
      if (isRequestCode(message.code)) paths.push(uriPathOf(message));
    } catch {
      paths.push('<not CoAP>');
    }
    socket.send(bytes, devicePort, deviceHost);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return {
    link: `udp:127.0.0.1:${socket.address().port}`,
    paths,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
