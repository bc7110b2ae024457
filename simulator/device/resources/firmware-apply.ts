import { CODE } from '../../../protocol/coap';
import { RESOURCE } from '../../../protocol/constants';
import type { Resource } from '../context';
import { cborResponse } from '../errors';

export const firmwareApplyResource: Resource = {
  path: RESOURCE.firmwareApply,
  linkAttributes: ';rt="provisioner.fw.apply"',
  methods: {
    POST: async (_request, device) => {
      const header = await device.firmware.verifyForApply();
      return cborResponse(
        CODE.CHANGED,
        { version: header.version },
        { after: () => device.applyAfterResponse(header) },
      );
    },
  },
};
