import { CODE } from '../../../protocol/coap';
import { CONTENT_FORMAT_LINK_FORMAT, RESOURCE } from '../../../protocol/constants';
import type { Resource } from '../context';

/** RFC 6690 link format of every other resource; the list is the device's resource table. */
export function wellKnownCoreResource(resources: readonly Resource[]): Resource {
  const links = resources.map((r) => `</${r.path}>${r.linkAttributes}`).join(',');
  const payload = new TextEncoder().encode(links);
  return {
    path: RESOURCE.wellKnownCore,
    linkAttributes: '',
    methods: {
      GET: async () => ({ code: CODE.CONTENT, contentFormat: CONTENT_FORMAT_LINK_FORMAT, payload }),
    },
  };
}
