import type { VendorFamily } from '../../../domain/vendor/running-values';
import type { Link } from '../links/link';
import { createLink, type LinkFactoryDeps, type LinkSpec } from '../links/link-spec';
import { SerialLink } from '../links/serial-link';

/** The vendor's families by transport: the FRC on USB serial, the EPC on UDP (vendor spec §1). */
export function vendorFamilyOf(spec: LinkSpec): VendorFamily {
  if (spec.kind === 'ble') throw new RangeError("The vendor's devices have no BLE transport (docs/vendor-devices.md).");
  return spec.kind === 'serial' ? 'FRC' : 'EPC';
}

/** A link to a vendor device: plain SLIP frames without our CRC on serial, plain CoAP on UDP. */
export function createVendorLink(spec: LinkSpec, deps: LinkFactoryDeps = {}): Link {
  if (spec.kind === 'serial')
    return new SerialLink({
      path: spec.path,
      baudRate: spec.baudRate,
      openPort: deps.openPort,
      checksum: 'none',
      whenPortInUse: deps.whenPortInUse,
    });
  return createLink(spec, deps);
}
