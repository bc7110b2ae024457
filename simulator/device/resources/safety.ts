import { CODE, observeOf } from '../../../protocol/coap';
import { SAFETY_RESOURCE } from '../../../protocol/safety';
import { OBSERVE_REGISTER } from '../../../protocol/coap/parameters';
import type { Resource } from '../context';
import { cborResponse } from '../errors';
import { DeviceError } from '../errors';
import { DEVICE_ERROR } from '../../../protocol/constants';
import { safetyOf } from '../safety';

/** GET /safety: the E-stop's presses and the outputs' trips (docs/device-protocol.md), observable. */
export const safetyResource: Resource = {
  path: SAFETY_RESOURCE,
  linkAttributes: ';rt="provisioner.safety";ct=60;obs',
  methods: {
    GET: async (request, device) => {
      const safety = safetyOf(device);
      if (!safety) throw new DeviceError(DEVICE_ERROR.notFound, 'This device has no safety function.');
      if (observeOf(request.message) === OBSERVE_REGISTER) safety.observed();
      return cborResponse(CODE.CONTENT, safety.status(), { observable: true });
    },
  },
};
