import { decodeCbor, encodeCbor, isCborMap } from '../../domain/files/cbor';
import type { RunningValueType } from '../../domain/vendor/running-values';
import { CODE, contentFormatOf, getOptions, OPTION, type CoapMessage } from '../../protocol/coap';
import {
  decodeSystemReset,
  encodeVendorValue,
  VENDOR_CONTENT_FORMAT,
  VENDOR_RESOURCE,
  EPC_PATH,
  FRC_PATH,
} from '../../protocol/vendor';
import type { ResourceResponse, RequestHandler } from '../coap/types';
import { finalBlockOptions } from './block-receiver';
import { settingsFromSecureConfig } from './config-apply';
import type { VendorContext } from './device';
import { SettingValueError, type Setting } from './settings';
import { badRequest, changed, notFound, textResponse } from './responses';

/** The vendor devices' request handler: GET and POST only, as the vendor's tool uses (spec §2). */
export function vendorRouter(device: VendorContext): RequestHandler {
  return async (request) => {
    const { message, path } = request;
    const query = getOptions(message, OPTION.URI_QUERY)
      .map((q) => new TextDecoder().decode(q))
      .join('&');
    const method = request.method === CODE.GET ? 'GET' : request.method === CODE.POST ? 'POST' : undefined;
    if (method === undefined) return textResponse(CODE.METHOD_NOT_ALLOWED, `/${path} takes GET or POST.`);
    try {
      return await route(device, method, path, query, message);
    } catch (error) {
      if (error instanceof SettingValueError) return badRequest(`${error.message}.`);
      throw error;
    }
  };
}

async function route(
  device: VendorContext,
  method: 'GET' | 'POST',
  path: string,
  query: string,
  message: CoapMessage,
): Promise<ResourceResponse | undefined> {
  const { family } = device;
  if (path === VENDOR_RESOURCE.systemReset) {
    if (method !== 'POST')
      return textResponse(CODE.METHOD_NOT_ALLOWED, `/${path} takes POST: n reboots, b reboots into the bootloader.`);
    const kind = decodeSystemReset(message.payload);
    if (kind === undefined) return badRequest('Send n (reboot), b (reboot into the bootloader) or nothing (reboot).');
    // The answer goes out before the device goes away (vendor spec §12, item 4).
    return {
      ...changed(kind === 'normal' ? 'rebooting' : 'rebooting into the bootloader'),
      after: () => device.resetAfterResponse(kind),
    };
  }
  if (path === FRC_PATH.fwVersion || (family === 'EPC' && path === EPC_PATH.fwVersion)) {
    if (method !== 'GET')
      return textResponse(CODE.METHOD_NOT_ALLOWED, `/${path} is read-only: the version changes by a firmware update.`);
    const version = device.store.current.firmwareVersion;
    return valueResponse(family === 'EPC' ? 'json' : 'text', version);
  }
  if (family === 'FRC') {
    // The joystick and keypad status objects; the spec does not describe their contents, so these
    // are a resting stick and no key pressed [INFERRED].
    if (method === 'GET' && path === 'st/joystick')
      return {
        code: CODE.CONTENT,
        contentFormat: VENDOR_CONTENT_FORMAT.cbor,
        payload: encodeCbor({ x: 0, y: 0, z: 0 }),
      };
    if (method === 'GET' && path === 'st/keypad')
      return { code: CODE.CONTENT, contentFormat: VENDOR_CONTENT_FORMAT.cbor, payload: encodeCbor({ keys: 0 }) };
    if (path === VENDOR_RESOURCE.fsData)
      return method === 'POST' ? device.fs.postData(message, device) : device.fs.getData(device);
    if (path === VENDOR_RESOURCE.fsMetadata)
      return method === 'POST' ? device.fs.postMetadata(message, device) : device.fs.getMetadata(query, device);
  } else {
    if (path === VENDOR_RESOURCE.epcFirmware && method === 'POST')
      return refuseInBootloader(device) ?? device.epcFirmware.post(message, device);
    if (path === VENDOR_RESOURCE.epcFirmwareStatus && method === 'GET') return device.epcFirmware.statusResponse();
    if (path === VENDOR_RESOURCE.cfgAll && method === 'POST')
      return refuseInBootloader(device) ?? postCfgAll(device, message);
    if (path === 'cfg/coapd' && method === 'POST') return changed();
  }
  const leafPath = family === 'FRC' && query !== '' ? `${path}?${query}` : path;
  const setting = device.settings.get(leafPath);
  if (setting !== undefined) {
    if (method === 'GET')
      return valueResponse(setting.form, device.store.current.settings[setting.path] ?? setting.initial);
    if (setting.parse === undefined) return textResponse(CODE.METHOD_NOT_ALLOWED, `/${leafPath} is read-only.`);
    const refusal = refuseInBootloader(device);
    if (refusal) return refusal;
    return set(device, [[setting, decodeLeafValue(message, setting)]]);
  }
  if (family === 'FRC' && device.settings.has(`${path}?0`))
    return badRequest(`/${path} is indexed: add the slot 0 to 9 as a query, e.g. /${path}?0.`);
  // EPC: POST {leaf: value, …} to the parent (vendor spec §5.1).
  const children =
    family === 'EPC'
      ? [...device.settings.values()].filter(
          (s) => s.path.startsWith(`${path}/`) && !s.path.slice(path.length + 1).includes('/'),
        )
      : [];
  if (children.length > 0 && method === 'POST') {
    const refusal = refuseInBootloader(device);
    if (refusal) return refusal;
    const body = decodeBody(message);
    if (!isCborMap(body))
      return badRequest(
        `POST to /${path} takes a JSON object {leaf: value}; its leaves are ${children.map((c) => c.path.slice(path.length + 1)).join(', ')}.`,
      );
    const updates: Array<[Setting, unknown]> = [];
    for (const [leaf, value] of Object.entries(body)) {
      const child = device.settings.get(`${path}/${leaf}`);
      if (child === undefined)
        return badRequest(
          `/${path} has no leaf ${leaf}; it has ${children.map((c) => c.path.slice(path.length + 1)).join(', ')}.`,
        );
      if (child.parse === undefined) return badRequest(`/${path}/${leaf} is read-only.`);
      updates.push([child, value]);
    }
    return set(device, updates);
  }
  return notFound(`This device has no resource /${leafPath}.`);
}

/** Every value is checked before any is stored: one bad value changes nothing. */
async function set(device: VendorContext, updates: Array<[Setting, unknown]>): Promise<ResourceResponse> {
  const parsed = updates.map(([setting, input]) => [setting, setting.parse!(input)] as const);
  for (const [setting, value] of parsed) device.store.current.settings[setting.path] = value;
  await device.store.save();
  return changed();
}

function valueResponse(form: Setting['form'], value: RunningValueType): ResourceResponse {
  const encoded = encodeVendorValue(form, value);
  return { code: CODE.CONTENT, contentFormat: encoded.contentFormat, payload: encoded.payload };
}

function refuseInBootloader(device: VendorContext): ResourceResponse | undefined {
  if (!device.inBootloader) return undefined;
  return textResponse(
    CODE.SERVICE_UNAVAILABLE,
    'In the bootloader: POST n to cfg/setup/systemReset to run the application.',
  );
}

/** A POST body by its Content-Format: text (CF 0 or none), JSON (50), CBOR (60). */
function decodeBody(message: CoapMessage): unknown {
  const format = contentFormatOf(message);
  const text = () => new TextDecoder().decode(message.payload);
  if (format === VENDOR_CONTENT_FORMAT.json) {
    try {
      return JSON.parse(text());
    } catch {
      throw new SettingValueError('The body is not JSON');
    }
  }
  if (format === VENDOR_CONTENT_FORMAT.cbor) {
    try {
      return decodeCbor(message.payload);
    } catch {
      throw new SettingValueError('The body is not CBOR');
    }
  }
  if (format === undefined || format === VENDOR_CONTENT_FORMAT.text) return text();
  throw new SettingValueError(`Content-Format ${format} is not one this device reads (0 text, 50 JSON, 60 CBOR)`);
}

/** A leaf's value: FRC CBOR sets come as {snake_key: n}; others as the bare value. */
function decodeLeafValue(message: CoapMessage, setting: Setting): unknown {
  const body = decodeBody(message);
  if (contentFormatOf(message) === VENDOR_CONTENT_FORMAT.cbor && setting.cborKey !== undefined) {
    if (!isCborMap(body) || !(setting.cborKey in body))
      throw new SettingValueError(`/${setting.path} takes the CBOR map {"${setting.cborKey}": value}`);
    return body[setting.cborKey];
  }
  return body;
}

async function postCfgAll(device: VendorContext, message: CoapMessage): Promise<ResourceResponse> {
  const outcome = device.cfgAll.receive(message);
  if (!outcome.done) return outcome.response;
  const result = settingsFromSecureConfig(outcome.body, device.family, device.settings, device.drift);
  if (!result.ok)
    return { ...badRequest(`Configuration refused: ${result.reason}`), options: finalBlockOptions(outcome.block) };
  Object.assign(device.store.current.settings, result.settings);
  device.store.current.config = { ...result.record, via: 'cfg/all', at: new Date().toISOString() };
  await device.store.save();
  return { ...textResponse(CODE.CHANGED, 'Configuration applied'), options: finalBlockOptions(outcome.block) };
}
