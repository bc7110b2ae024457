import { decodeConfigFile, type DecodedConfigFile } from '../../../domain/files/config-file';
import { verifyConfigFile } from '../../../domain/files/config-file-signature';
import { FileFormatError } from '../../../domain/files/file-error';
import { block1Option, CODE } from '../../../protocol/coap';
import type { ConfigApplied, ConfigStatus } from '../../../protocol/payloads';
import { DEVICE_ERROR, RESOURCE, type AnyDeviceErrorCode } from '../../../protocol/constants';
import { writeFileAtomic } from '../../../platform/durable-file';
import type { DeviceContext, Resource } from '../context';
import { cborResponse, DeviceError } from '../errors';
import { incomingBlock } from './block1';

const CONFIG_ERROR_CODES = new Set<string>([
  DEVICE_ERROR.configBadFormat,
  DEVICE_ERROR.configChecksumMismatch,
  DEVICE_ERROR.configBadSignature,
  DEVICE_ERROR.configWrongDevice,
]);

/** What the device checks before it takes a file: structure, checksum, signature, addressee. */
function verify(file: Uint8Array, device: DeviceContext): DecodedConfigFile {
  const { serialNumber, deviceType } = device.store.current;
  let decoded: DecodedConfigFile;
  try {
    decoded = verifyConfigFile(file, { publicKeyPem: device.publicKeyPem, expectedSerialNumber: serialNumber });
  } catch (error) {
    if (!(error instanceof FileFormatError) || !CONFIG_ERROR_CODES.has(error.code)) {
      throw new DeviceError(DEVICE_ERROR.configBadFormat, `The configuration file is not valid: ${(error as Error).message}`);
    }
    // The file parsed far enough to name its device: the host shows whose file it was.
    const fields = error.code === DEVICE_ERROR.configWrongDevice ? { serialNumber: decodeConfigFile(file).serialNumber } : {};
    throw new DeviceError(error.code as AnyDeviceErrorCode, error.message, fields);
  }
  if (decoded.deviceType !== deviceType) {
    const message = `The configuration file is for a ${decoded.deviceType}; this device is a ${deviceType}.`;
    throw new DeviceError(DEVICE_ERROR.configWrongDevice, message, { serialNumber: decoded.serialNumber });
  }
  return decoded;
}

export const configResource: Resource = {
  path: RESOURCE.config,
  linkAttributes: ';rt="provisioner.config";ct=60',
  methods: {
    GET: async (_request, device) => {
      const config = device.store.current.config;
      return cborResponse(CODE.CONTENT, { syncId: config?.syncId ?? null, appliedAt: config?.appliedAt ?? null, blank: config?.blank ?? true } satisfies ConfigStatus);
    },
    PUT: async (request, device) => {
      const { block, offset, payload, size1 } = incomingBlock(request.message, device.maxBlockSize);
      const file = device.config.write(offset, payload, block.more, block.num === 0 ? size1 : undefined);
      if (file === undefined) return { code: CODE.CONTINUE, options: [block1Option({ num: block.num, more: true, size: block.size })] };
      const decoded = verify(file, device);
      // Only a file that passed every check replaces the applied one; the state then names it.
      await writeFileAtomic(device.store.configPath, file);
      device.store.current.config = { syncId: decoded.syncId, appliedAt: new Date().toISOString(), blank: decoded.content.blank };
      await device.store.save();
      const echo = block1Option({ num: block.num, more: false, size: block.size });
      return cborResponse(CODE.CHANGED, { syncId: decoded.syncId } satisfies ConfigApplied, { options: [echo], after: () => device.rebootAfterResponse() });
    },
  },
};
