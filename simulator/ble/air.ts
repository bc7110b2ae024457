import type { BleLink } from '../links/ble';

/** Every simulated BLE peripheral in this process: what a simulated central can "hear". */
export const bleAir = new Set<BleLink>();
