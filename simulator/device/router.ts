import { CODE } from '../../protocol/coap';
import { DEVICE_ERROR, DEVICE_ERROR_MORE } from '../../protocol/constants';
import type { ResourceResponse, RequestHandler } from '../coap/types';
import type { DeviceContext, Method, Resource } from './context';
import { busyError } from './busy';
import { DeviceError, errorResponse } from './errors';

const METHOD_BY_CODE: Record<string, Method> = {
  [CODE.GET]: 'GET',
  [CODE.POST]: 'POST',
  [CODE.PUT]: 'PUT',
  [CODE.DELETE]: 'DELETE',
};

/** Dispatches requests to resources and turns refusals into the protocol's error responses. */
export function createRouter(resources: readonly Resource[], device: DeviceContext): RequestHandler {
  const byPath = new Map(resources.map((r) => [r.path, r]));
  return async (request): Promise<ResourceResponse | undefined> => {
    const resource = byPath.get(request.path);
    if (resource === undefined)
      return errorResponse(new DeviceError(DEVICE_ERROR.notFound, `This device has no resource /${request.path}.`));
    const method = METHOD_BY_CODE[request.method];
    const handler = method === undefined ? undefined : resource.methods[method];
    if (handler === undefined) {
      const allowed = Object.keys(resource.methods).join(', ');
      return errorResponse(new DeviceError(DEVICE_ERROR_MORE.methodNotAllowed, `/${request.path} takes ${allowed}.`));
    }
    try {
      // GETs are answered even while the device applies firmware or is about to reboot: a host
      // watching /fw or /info should see 'applying'. Anything that changes the device waits.
      const busy = method === 'GET' ? null : device.busy();
      if (busy !== null) throw busyError(busy.what, busy.seconds);
      return await handler(request, device);
    } catch (error) {
      if (error instanceof DeviceError) return errorResponse(error);
      return errorResponse(
        new DeviceError(DEVICE_ERROR_MORE.internal, `The device failed: ${(error as Error).message}`),
      );
    }
  };
}
