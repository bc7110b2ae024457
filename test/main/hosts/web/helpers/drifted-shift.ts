import { parseShiftPlan, runShift, type ShiftRun } from '../../../../../simulator/shift-plan';

/**
 * A Station shift on the bench's ptys: an SRCP plugged in, then an EPC that stores a safety timeout
 * other than its file's (it fails the parameter check and is kept apart). Returns what starts it.
 */
export function driftedShift(options: {
  ptyDir: string;
  stateDir: string;
  keys: { publicKeyPem: string; releaseKeysPem: string[] };
  srcp: string;
  epc: string;
  driftedTimeoutMs: number;
}): () => ShiftRun {
  const plan = parseShiftPlan({
    defaults: {
      ptyDir: options.ptyDir,
      releaseKeysPem: options.keys.releaseKeysPem,
      baudRate: 921600,
      rebootMs: 150,
      applyMs: 50,
    },
    devices: [
      { deviceType: 'SRCP', serialNumber: options.srcp },
      {
        deviceType: 'EPC',
        serialNumber: options.epc,
        faults: { paramDrift: `safety.timeout=${options.driftedTimeoutMs}` },
      },
    ],
    plan: [
      { at: 0, plug: options.srcp },
      { at: 100, plug: options.epc },
    ],
  });
  return () => runShift({ ...plan, stateDir: options.stateDir, publicKeyPem: options.keys.publicKeyPem });
}
