import { decodeConfigFile, type DecodedConfigFile } from '../../../domain/files/config-file';
import {
  decideConfigFile,
  type ConfigFileDecision,
  type HeldConfiguration,
} from '../../../domain/files/config-file-acceptance';
import { verifyConfigFile } from '../../../domain/files/config-file-signature';
import { FileFormatError } from '../../../domain/files/file-error';
import { block1Option, CODE } from '../../../protocol/coap';
import type { ConfigApplied, ConfigStatus } from '../../../protocol/payloads';
import { DEVICE_ERROR, RESOURCE, type AnyDeviceErrorCode } from '../../../protocol/constants';
import { writeFileAtomic } from '../../../platform/durable-file';
import type { DeviceContext, Resource } from '../context';
import type { DeviceState } from '../state';
import { cborResponse, DeviceError } from '../errors';
import { incomingBlock } from './block1';
import { parseParameterDrift, storedParameters } from '../parameters';

const CONFIG_ERROR_CODES = new Set<string>([
  DEVICE_ERROR.configBadFormat,
  DEVICE_ERROR.configChecksumMismatch,
  DEVICE_ERROR.configBadSignature,
  DEVICE_ERROR.configWrongDevice,
]);

/**
 * What the device checks of the file itself: structure, checksum, the root key's certificate for
 * the organization key and that key's signature, addressee.
 */
function verify(file: Uint8Array, device: DeviceContext): DecodedConfigFile {
  const { serialNumber, deviceType } = device.store.current;
  let decoded: DecodedConfigFile;
  try {
    decoded = verifyConfigFile(file, { rootKeyPem: device.publicKeyPem, expectedSerialNumber: serialNumber });
  } catch (error) {
    if (!(error instanceof FileFormatError) || !CONFIG_ERROR_CODES.has(error.code)) {
      throw new DeviceError(
        DEVICE_ERROR.configBadFormat,
        `The configuration file is not valid: ${(error as Error).message}`,
      );
    }
    // The file parsed far enough to name its device: the host shows whose file it was.
    const fields =
      error.code === DEVICE_ERROR.configWrongDevice ? { serialNumber: decodeConfigFile(file).serialNumber } : {};
    throw new DeviceError(error.code as AnyDeviceErrorCode, error.message, fields);
  }
  if (decoded.deviceType !== deviceType) {
    const message = `The configuration file is for a ${decoded.deviceType}; this device is a ${deviceType}.`;
    throw new DeviceError(DEVICE_ERROR.configWrongDevice, message, { serialNumber: decoded.serialNumber });
  }
  return decoded;
}

function held(state: DeviceState): HeldConfiguration {
  return {
    claim: state.claim && { orgId: state.claim.orgId, keyId: state.claim.keyId },
    applied: state.config && { sequence: state.config.sequence, syncId: state.config.syncId },
  };
}

/** Whether the device takes a genuine file: the organization it is claimed by, and no older file than the applied one. */
function decide(decoded: DecodedConfigFile, state: DeviceState): ConfigFileDecision {
  try {
    return decideConfigFile(decoded, held(state));
  } catch (error) {
    if (!(error instanceof FileFormatError)) throw error;
    if (error.code === DEVICE_ERROR.configWrongOrganization) {
      throw new DeviceError(DEVICE_ERROR.configWrongOrganization, error.message, {
        orgId: state.claim?.orgId,
        orgKeyId: state.claim?.keyId,
      });
    }
    if (error.code === DEVICE_ERROR.configSuperseded) {
      throw new DeviceError(DEVICE_ERROR.configSuperseded, error.message, {
        sequence: state.config?.sequence,
        syncId: state.config?.syncId,
      });
    }
    throw error;
  }
}

export const configResource: Resource = {
  path: RESOURCE.config,
  linkAttributes: ';rt="provisioner.config";ct=60',
  methods: {
    GET: async (_request, device) => {
      const { config, claim } = device.store.current;
      return cborResponse(CODE.CONTENT, {
        syncId: config?.syncId ?? null,
        appliedAt: config?.appliedAt ?? null,
        blank: config?.blank ?? true,
        sequence: config?.sequence ?? null,
        orgId: claim?.orgId ?? null,
        orgKeyId: claim?.keyId ?? null,
      } satisfies ConfigStatus);
    },
    PUT: async (request, device) => {
      const { block, offset, payload, size1 } = incomingBlock(request.message, device.maxBlockSize);
      const file = device.config.write(offset, payload, block.more, block.num === 0 ? size1 : undefined);
      if (file === undefined)
        return { code: CODE.CONTINUE, options: [block1Option({ num: block.num, more: true, size: block.size })] };
      const decoded = verify(file, device);
      const state = device.store.current;
      const echo = block1Option({ num: block.num, more: false, size: block.size });
      if (decide(decoded, state) === 'unchanged') {
        // The file in force, sent again (a host retrying, or a replay of it): nothing to do, no restart.
        return cborResponse(CODE.CHANGED, { syncId: decoded.syncId, unchanged: true } satisfies ConfigApplied, {
          options: [echo],
        });
      }
      // Only a file that passed every check replaces the applied one; the state then names it.
      await writeFileAtomic(device.store.configPath, file);
      const now = new Date().toISOString();
      state.config = {
        syncId: decoded.syncId,
        appliedAt: now,
        blank: decoded.content.blank,
        sequence: decoded.sequence,
      };
      state.claim ??= { orgId: decoded.orgId, keyId: decoded.keyId, claimedAt: now };
      const drift =
        device.faults.options.paramDrift === undefined
          ? undefined
          : parseParameterDrift(device.faults.options.paramDrift);
      state.parameters = storedParameters(decoded.content, drift);
      await device.store.save();
      return cborResponse(CODE.CHANGED, { syncId: decoded.syncId } satisfies ConfigApplied, {
        options: [echo],
        after: () => device.rebootAfterResponse(),
      });
    },
  },
};
