import { CODE } from '../../../protocol/coap';
import { RESOURCE } from '../../../protocol/constants';
import type { Resource } from '../context';

export const rebootResource: Resource = {
  path: RESOURCE.reboot,
  linkAttributes: ';rt="provisioner.reboot"',
  methods: {
    POST: async (_request, device) => ({ code: CODE.CHANGED, after: () => device.rebootAfterResponse() }),
  },
};
