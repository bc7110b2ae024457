import { CODE, OPTION, type CoapMessage } from '../../protocol/coap';
import {
  decodeFsMetadata,
  encodeFsMetadata,
  FRC_FILE,
  FS_METADATA_COMPUTED,
  VENDOR_CONTENT_FORMAT,
  vendorCrc32,
} from '../../protocol/vendor';
import type { ResourceResponse } from '../coap/types';
import { finalBlockOptions, SequentialBlockReceiver } from './block-receiver';
import { settingsFromSecureConfig } from './config-apply';
import type { VendorContext } from './device';
import { badRequest, changed, notFound, textResponse } from './responses';

/**
 * The FRC's `fs` transfer (vendor spec §6.1): POST a name to fs/data to select a file, POST 12
 * bytes to fs/metadata to declare its length and CRC-32, POST its bytes to fs/data in Block1 blocks,
 * then GET fs/metadata?computed; GET fs/data reads it back in Block2 blocks. The selection, the
 * declaration and a partial upload are RAM: a reboot forgets them; a whole file is kept.
 */
export class FsSession {
  private selected: string | null = null;
  private declared: { length: number; crc32: number } | null = null;
  private readonly receiver: SequentialBlockReceiver;

  constructor(options: { maxBlockSize: number; maxSize: number }) {
    this.receiver = new SequentialBlockReceiver({ ...options, what: 'The file' });
  }

  reset(): void {
    this.selected = null;
    this.declared = null;
    this.receiver.reset();
  }

  async postData(message: CoapMessage, device: VendorContext): Promise<ResourceResponse | undefined> {
    if (!message.options.some((o) => o.number === OPTION.BLOCK1)) return this.select(message);
    const name = this.selected;
    if (name === null) return badRequest('Select a file first: POST its name to fs/data.');
    // The faults strike before the block is stored: a pulled cable loses the block in hand, and
    // its retransmission after the replug continues the upload where it was.
    const end = SequentialBlockReceiver.endOf(message);
    if (end > 0) {
      const faults = device.faults.onFirmwareBlock(end);
      if (faults.pull) {
        device.pullCable();
        return undefined;
      }
      if (faults.stallMs > 0) device.stall(faults.stallMs);
    }
    const outcome = this.receiver.receive(message);
    if (!outcome.done) return outcome.response;
    const data = outcome.body;
    const entry = { length: data.length, crc32: vendorCrc32(data), declared: this.declared };
    if (name === FRC_FILE.secureConfig) {
      const refusal = await applySecureConfigFile(data, device);
      if (refusal !== undefined) return { ...badRequest(refusal), options: finalBlockOptions(outcome.block) };
    }
    await device.store.writeFile(name, data, entry);
    return { ...changed(), options: finalBlockOptions(outcome.block) };
  }

  postMetadata(message: CoapMessage, device: VendorContext): ResourceResponse {
    if (this.selected === null) return badRequest('Select a file first: POST its name to fs/data.');
    let metadata;
    try {
      metadata = decodeFsMetadata(message.payload);
    } catch (error) {
      return badRequest((error as Error).message);
    }
    if (metadata.start !== 0)
      return badRequest(`This device writes files from their start: metadata start must be 0, not ${metadata.start}.`);
    if (metadata.length > device.options.maxImageSize)
      return textResponse(
        CODE.REQUEST_ENTITY_TOO_LARGE,
        `A file of ${metadata.length} bytes does not fit; this device holds ${device.options.maxImageSize}.`,
      );
    this.declared = { length: metadata.length, crc32: metadata.crc32 };
    this.receiver.reset();
    return changed();
  }

  /** GET fs/metadata?computed: length and CRC-32 of the selected file as stored; without the query, as declared. */
  getMetadata(query: string, device: VendorContext): ResourceResponse {
    if (this.selected === null) return badRequest('Select a file first: POST its name to fs/data.');
    const file = device.store.current.files[this.selected];
    if (query === FS_METADATA_COMPUTED) {
      if (file === undefined) return notFound(`There is no file ${this.selected} on this device.`);
      return {
        code: CODE.CONTENT,
        contentFormat: VENDOR_CONTENT_FORMAT.octetStream,
        payload: encodeFsMetadata({ start: 0, length: file.length, crc32: file.crc32 }),
      };
    }
    const declared = this.declared ?? file?.declared ?? null;
    if (declared === null) return notFound(`No metadata was declared for ${this.selected}.`);
    return {
      code: CODE.CONTENT,
      contentFormat: VENDOR_CONTENT_FORMAT.octetStream,
      payload: encodeFsMetadata({ start: 0, ...declared }),
    };
  }

  /** GET fs/data: the whole file; the CoAP server cuts it into the Block2 blocks asked for. */
  async getData(device: VendorContext): Promise<ResourceResponse> {
    if (this.selected === null) return badRequest('Select a file first: POST its name to fs/data.');
    const data = await device.store.readFile(this.selected);
    if (data === undefined) return notFound(`There is no file ${this.selected} on this device.`);
    return { code: CODE.CONTENT, contentFormat: VENDOR_CONTENT_FORMAT.octetStream, payload: data };
  }

  private select(message: CoapMessage): ResourceResponse {
    const name = new TextDecoder().decode(message.payload);
    if (!/^[\x21-\x7e]{1,64}$/.test(name) || name.includes('/')) {
      return badRequest(
        `A file name is 1 to 64 printable characters without spaces or '/', not ${JSON.stringify(name)}.`,
      );
    }
    // The vendor's menu selects twice before a download: selecting the file in hand keeps its declaration.
    if (name !== this.selected) this.declared = null;
    this.selected = name;
    this.receiver.reset();
    return changed();
  }
}

/** secureConfig.cbor is applied as it arrives; a refusal is said in the final block's answer. */
async function applySecureConfigFile(data: Uint8Array, device: VendorContext): Promise<string | undefined> {
  if (device.inBootloader) return 'The bootloader takes no configuration: POST n to cfg/setup/systemReset first.';
  const result = settingsFromSecureConfig(data, device.family, device.settings, device.drift);
  if (!result.ok) return `secureConfig.cbor refused: ${result.reason}`;
  Object.assign(device.store.current.settings, result.settings);
  device.store.current.config = { ...result.record, via: 'secureConfig.cbor', at: new Date().toISOString() };
  await device.store.save();
  return undefined;
}
