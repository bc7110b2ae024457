import type { LinkOption } from './options';

/** 'pty', 'ble' or 'udp:HOST:PORT' (the CLI's and fleet files' spelling of a link). */
export function parseLink(text: string): LinkOption {
  if (text === 'pty' || text === 'ble') return text;
  const match = /^udp:(.+):(\d+)$/.exec(text);
  if (match) {
    const port = Number(match[2]);
    if (port > 65535) throw new Error(`UDP port ${port} is out of range.`);
    return { udp: { host: match[1]!.replace(/^\[|\]$/g, ''), port } };
  }
  throw new Error(`--link wants pty, ble or udp:HOST:PORT (e.g. udp:127.0.0.1:5683), not "${text}".`);
}
