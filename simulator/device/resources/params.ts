import { CODE } from '../../../protocol/coap';
import { PARAMETERS_RESOURCE, type RunningParametersPayload } from '../../../protocol/parameters';
import { canonicalParameterEncoding } from '../../../domain/running-parameters';
import { sha256 } from '../../../domain/files/config-file';
import type { Resource } from '../context';
import { cborResponse } from '../errors';
import { parametersOfStoredFile, parseParameterDrift } from '../parameters';

/** GET /params: the parameters the device stored when it applied its file, and its checksum over them (docs/device-protocol.md 3.11). */
export const paramsResource: Resource = {
  path: PARAMETERS_RESOURCE,
  linkAttributes: ';rt="provisioner.params";ct=60',
  methods: {
    GET: async (_request, device) => {
      const state = device.store.current;
      if (state.parameters === undefined) {
        const drift =
          device.faults.options.paramDrift === undefined
            ? undefined
            : parseParameterDrift(device.faults.options.paramDrift);
        state.parameters = await parametersOfStoredFile(device.store.configPath, state.serialNumber, drift);
        await device.store.save();
      }
      const values = state.parameters;
      return cborResponse(CODE.CONTENT, {
        syncId: state.config?.syncId ?? null,
        values,
        checksum: sha256(canonicalParameterEncoding(values)),
      } satisfies RunningParametersPayload);
    },
  },
};
