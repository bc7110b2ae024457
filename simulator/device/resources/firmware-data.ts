import { block1Option, CODE } from '../../../protocol/coap';
import { RESOURCE } from '../../../protocol/constants';
import type { Resource } from '../context';
import { cborResponse } from '../errors';
import { incomingBlock } from './block1';
import { afterAnnounce, takesAnnounceExtensions } from './firmware';

export const firmwareDataResource: Resource = {
  path: RESOURCE.firmwareData,
  linkAttributes: ';rt="provisioner.fw.data"',
  methods: {
    PUT: async (request, device) => {
      // A block sent right behind an announce waits for it (GET /info blocksBehindAnnounce).
      if (takesAnnounceExtensions(device)) await afterAnnounce(device);
      const { block, offset, payload } = incomingBlock(request.message, device.maxBlockSize);
      const faults = device.faults.onFirmwareBlock(offset + payload.length);
      if (faults.pull) {
        device.pullCable();
        return undefined;
      }
      if (faults.stallMs > 0) device.stall(faults.stallMs);
      const progress = await device.firmware.writeBlock(offset, payload, block.more);
      if (progress === 'continue')
        return { code: CODE.CONTINUE, options: [block1Option({ num: block.num, more: true, size: block.size })] };
      // The block that completes the image gets the final response, whichever NUM it has.
      return cborResponse(CODE.CHANGED, progress, {
        options: [block1Option({ num: block.num, more: false, size: block.size })],
      });
    },
  },
};
