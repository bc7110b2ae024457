import { downloadBlock2 } from '../coap/block2';
import type { DeviceSession } from '../session';
import {
  PARAMETERS_MAX_BYTES,
  PARAMETERS_RESOURCE,
  runningParametersPayloadSchema,
  type RunningParametersPayload,
} from '../../../protocol/parameters';
import { decodeResponse } from './payloads';

/**
 * GET /params: the parameters the device runs and the checksum it computed over them
 * (docs/device-protocol.md, "Running parameters"). The host checks nothing here: the comparison
 * with what the configuration intends is the job's (domain/running-parameters.ts).
 */
export async function readRunningParameters(
  session: DeviceSession,
  options: { signal?: AbortSignal } = {},
): Promise<RunningParametersPayload> {
  const step = 'parameter read-back';
  const { payload, response } = await downloadBlock2(session.engine, {
    path: PARAMETERS_RESOURCE,
    step,
    signal: options.signal,
    maxBytes: PARAMETERS_MAX_BYTES,
  });
  return decodeResponse(
    runningParametersPayloadSchema,
    { ...response, message: { ...response.message, payload } },
    session.context(step),
  );
}
