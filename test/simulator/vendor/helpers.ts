import { join } from 'node:path';
import { encodeCbor } from '../../../domain/files/cbor';
import { parseScm2, type Scm2Input } from '../../../domain/vendor/scm2';
import { encodeConfigData, encodeSecureConfig } from '../../../domain/vendor/secure-config';
import {
  block1Option,
  block2Option,
  CODE,
  contentFormatOption,
  decodeBlock,
  getOption,
  OPTION,
  type CoapMessage,
  type CoapOption,
} from '../../../main/devices/coap';
import { encodeFsMetadata, fsMetadataOf, type FsMetadata } from '../../../protocol/vendor';
import { startSimulatedDevice, type SimulatedDevice, type SimulatedDeviceOptions } from '../../../simulator';
import { serviceKeys } from '../../fixtures/simulated-device';
import { RawCoapClient } from '../helpers/raw-client';
import { openSerialTransport, openUdpTransport, type Transport } from '../helpers/transports';

export type VendorDeviceOptions = Partial<SimulatedDeviceOptions> &
  Pick<SimulatedDeviceOptions, 'serialNumber' | 'deviceType'>;

export interface VendorSession {
  device: SimulatedDevice;
  client: RawCoapClient;
  transport: Transport;
  /** Serial: waits for the port to go and come back, then reopens it. */
  reconnect(): Promise<void>;
  close(): Promise<void>;
}

/** A simulated vendor device (FRC on a pty, EPC on loopback UDP) and a raw CoAP client, nothing of the host between. */
export async function startVendorSession(dir: string, options: VendorDeviceOptions): Promise<VendorSession> {
  const serial = options.deviceType !== 'EPC';
  const device = await startSimulatedDevice({
    protocol: 'vendor',
    link: serial ? 'pty' : { udp: { host: '127.0.0.1', port: 0 } },
    stateDir: join(dir, options.serialNumber),
    ptyDir: join(dir, 'sim'),
    publicKeyPem: serviceKeys.publicKeyPem,
    baudRate: 921600,
    rebootMs: 60,
    applyMs: 40,
    ...options,
  });
  const open = () =>
    serial
      ? openSerialTransport(device.descriptor.path!, 'none')
      : openUdpTransport('127.0.0.1', device.descriptor.port!);
  const transport = await open();
  const session: VendorSession = {
    device,
    transport,
    client: new RawCoapClient(transport, { ackTimeoutMs: 300, retries: 6 }),
    async reconnect() {
      if (!serial) return;
      if (session.transport.isOpen) {
        const closed = new Promise<void>((resolve) => session.transport.onClose(resolve));
        await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1000))]);
        await session.transport.close();
      }
      session.transport = await open();
      session.client.replaceTransport(session.transport);
    },
    async close() {
      await session.transport.close();
      await device.stop();
    },
  };
  return session;
}

export const text = (message: CoapMessage): string => new TextDecoder().decode(message.payload);
export const utf8 = (value: string): Uint8Array => new TextEncoder().encode(value);

export function postText(client: RawCoapClient, path: string, value: string, query?: string): Promise<CoapMessage> {
  return client.request({
    method: CODE.POST,
    path,
    payload: utf8(value),
    options: [contentFormatOption(0), ...queryOptions(query)],
  });
}

export function postJson(client: RawCoapClient, path: string, value: unknown): Promise<CoapMessage> {
  return client.request({
    method: CODE.POST,
    path,
    payload: utf8(JSON.stringify(value)),
    options: [contentFormatOption(50)],
  });
}

export function postCbor(client: RawCoapClient, path: string, value: unknown): Promise<CoapMessage> {
  return client.request({ method: CODE.POST, path, payload: encodeCbor(value), options: [contentFormatOption(60)] });
}

export function getWithQuery(client: RawCoapClient, path: string, query: string): Promise<CoapMessage> {
  return client.get(path, queryOptions(query));
}

function queryOptions(query: string | undefined): CoapOption[] {
  return query === undefined ? [] : [{ number: OPTION.URI_QUERY, value: utf8(query) }];
}

/**
 * POST `data` in Block1 blocks one at a time, as the vendor's tool does, following the block size
 * the device answers with (RFC 7959 §2.3). Returns every response, the last being the final one.
 */
export async function postBlockwise(
  client: RawCoapClient,
  path: string,
  data: Uint8Array,
  options: { blockSize: number; contentFormat?: number; onBlock?: (offset: number) => void },
): Promise<CoapMessage[]> {
  const responses: CoapMessage[] = [];
  let size = options.blockSize;
  let offset = 0;
  for (let guard = 0; guard < 1_000_000; guard++) {
    const num = offset / size;
    const more = offset + size < data.length;
    const blockOptions: CoapOption[] = [block1Option({ num, more, size })];
    if (options.contentFormat !== undefined) blockOptions.unshift(contentFormatOption(options.contentFormat));
    options.onBlock?.(offset);
    const response = await client.request({
      method: CODE.POST,
      path,
      payload: data.subarray(offset, offset + size),
      options: blockOptions.sort((a, b) => a.number - b.number),
    });
    responses.push(response);
    if (response.code !== CODE.CONTINUE) return responses;
    const answered = decodeBlock(getOption(response, OPTION.BLOCK1)!);
    offset += size;
    size = Math.min(size, answered.size);
  }
  throw new Error('postBlockwise did not end');
}

/** GET in Block2 blocks of `size`, the M bit set in the request as the vendor's tool sets it. */
export async function getBlockwise(client: RawCoapClient, path: string, size: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (let num = 0; num < 1_000_000; num++) {
    const response = await client.get(path, [block2Option({ num, more: true, size })]);
    if (response.code !== CODE.CONTENT) throw new Error(`GET ${path} block ${num}: ${response.code} ${text(response)}`);
    parts.push(response.payload);
    if (!decodeBlock(getOption(response, OPTION.BLOCK2)!).more) break;
  }
  return Buffer.concat(parts);
}

/** The vendor tool's fs upload (spec §6.1): select, metadata, 64-byte Block1. */
export async function fsUpload(
  client: RawCoapClient,
  name: string,
  data: Uint8Array,
  options: { blockSize?: number; metadata?: FsMetadata; onBlock?: (offset: number) => void } = {},
): Promise<CoapMessage> {
  const selected = await postText(client, 'fs/data', name);
  if (selected.code !== CODE.CHANGED) throw new Error(`selecting ${name}: ${selected.code} ${text(selected)}`);
  const declared = await client.request({
    method: CODE.POST,
    path: 'fs/metadata',
    payload: encodeFsMetadata(options.metadata ?? fsMetadataOf(data)),
  });
  if (declared.code !== CODE.CHANGED) throw new Error(`metadata of ${name}: ${declared.code} ${text(declared)}`);
  const responses = await postBlockwise(client, 'fs/data', data, {
    blockSize: options.blockSize ?? 64,
    ...(options.onBlock ? { onBlock: options.onBlock } : {}),
  });
  return responses[responses.length - 1]!;
}

export function secureConfigOf(scm2: Scm2Input, provisioner?: unknown): Uint8Array {
  const configData = encodeConfigData({ scm2: parseScm2(scm2), ...(provisioner === undefined ? {} : { provisioner }) });
  return encodeSecureConfig({
    configData,
    rComponent: 'DummyRComponent',
    sComponent: 'DummySComponent',
    fso73: 'DummyFSO7_3PEM',
  });
}

/** Waits until `check` holds, looking every 20 ms, at most `tries` times. */
export async function until(what: string, check: () => boolean | Promise<boolean>, tries = 500): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${what} did not happen`);
}
