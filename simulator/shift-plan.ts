import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { FleetDeviceSpec, FleetSpec } from './fleet';
import { parseLink } from './parse-link';
import { simulatorDir } from './scratch-dir';
import type { SimulatedDevice } from './simulated-device';
import { startSimulatedDevice } from './start-device';

/**
 * A shift at a production station, acted out: a fleet of devices and a timed plan of what the
 * person at the station does with them. A device comes into being at its first plug; `unplug`
 * pulls its cable and a later `plug` puts it back; an unplug `duringFirmwareAt` a byte offset
 * pulls it part-way through its firmware transfer (whenever that comes) and plugs it back `for`
 * milliseconds later. Two devices may share a serial number (a copied serial): give them distinct
 * `id`s.
 *
 *   { "devices": [ { "id": "epc", "deviceType": "EPC", "serialNumber": "EPC000101" }, ... ],
 *     "plan": [ { "at": 0, "plug": "epc" }, { "unplug": "epc", "duringFirmwareAt": 20000, "for": 1500 },
 *               { "at": 5000, "unplug": "epc" }, { "at": 6000, "plug": "epc" } ] }
 */

const idText = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'an id is 1 to 40 letters, digits, - or _');

const shiftDeviceSchema = z
  .object({
    id: idText.optional(),
    deviceType: z.string(),
    serialNumber: z.string(),
    link: z.string().default('pty'),
  })
  .passthrough();

const planStepSchema = z.union([
  z.object({ at: z.number().min(0), plug: idText }).strict(),
  z.object({ at: z.number().min(0), unplug: idText }).strict(),
  z
    .object({ unplug: idText, duringFirmwareAt: z.number().int().min(0), for: z.number().int().min(0).default(1000) })
    .strict(),
]);

const shiftFileSchema = z.object({
  defaults: z.record(z.string(), z.unknown()).optional(),
  devices: z.array(shiftDeviceSchema).min(1, 'a shift needs at least one device'),
  plan: z.array(planStepSchema).min(1, 'a shift needs a plan: at least one plug'),
});

/** A device of the shift: a fleet device with the id the plan names it by (default its serial number). */
export type ShiftDeviceSpec = FleetDeviceSpec & { id: string };

/** A timed step of the plan, in milliseconds from the start of the shift. */
export type ShiftStep = { at: number; action: 'plug' | 'unplug'; id: string };

export interface ShiftPlan {
  defaults?: FleetSpec['defaults'];
  devices: ShiftDeviceSpec[];
  steps: ShiftStep[];
}

/** Reads and checks a shift file; every mistake is named with where it is. */
export async function readShiftFile(path: string): Promise<ShiftPlan> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read the shift file ${path}: ${(error as Error).message}`);
  }
  return parseShiftPlan(json, path);
}

export function parseShiftPlan(json: unknown, where = 'the shift'): ShiftPlan {
  const parsed = shiftFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(
      `${where}: ${issue.path.join('.') || 'the file'}: ${issue.message}. See simulator/shift-plan.ts for the format.`,
    );
  }
  const devices = parsed.data.devices.map((raw) => ({ ...raw, id: raw.id ?? raw.serialNumber }) as ShiftDeviceSpec);
  const byId = new Map<string, ShiftDeviceSpec>();
  for (const device of devices) {
    if (byId.has(device.id))
      throw new Error(
        `${where}: two devices have the id "${device.id}"; give a repeated serial number's devices distinct ids.`,
      );
    byId.set(device.id, device);
  }
  const steps: ShiftStep[] = [];
  for (const [index, step] of parsed.data.plan.entries()) {
    const id = 'plug' in step ? step.plug : step.unplug;
    const device = byId.get(id);
    if (!device)
      throw new Error(
        `${where}: plan step ${index + 1} names "${id}", which is not among the devices (${[...byId.keys()].join(', ')}).`,
      );
    if ('duringFirmwareAt' in step) {
      // The device pulls its own cable at that offset of the transfer, whenever the transfer comes.
      device.faults = { ...device.faults, pullAt: step.duringFirmwareAt, replugAfterMs: step.for };
      continue;
    }
    steps.push({ at: step.at, action: 'plug' in step ? 'plug' : 'unplug', id });
  }
  steps.sort((a, b) => a.at - b.at);
  const plugged = new Set<string>();
  for (const step of steps) {
    if (step.action === 'unplug' && !plugged.has(step.id))
      throw new Error(`${where}: "${step.id}" is unplugged at ${step.at} ms before it was ever plugged in.`);
    plugged.add(step.id);
  }
  return { defaults: parsed.data.defaults as FleetSpec['defaults'], devices, steps };
}

export interface ShiftStepReport {
  at: number;
  action: 'plug' | 'unplug';
  id: string;
  device: SimulatedDevice;
}

export interface ShiftRun {
  /** Devices plugged in at least once, by id. */
  readonly devices: ReadonlyMap<string, SimulatedDevice>;
  /** Resolves when the last step of the plan is done (rejects if a step failed). */
  readonly finished: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Acts the plan out from now on. Steps run in order of their time; a step whose time has passed
 * (a slow start) runs at once, so the order always holds.
 */
export function runShift(
  spec: Pick<FleetSpec, 'stateDir' | 'publicKeyPem'> & ShiftPlan,
  options: { onStep?: (report: ShiftStepReport) => void } = {},
): ShiftRun {
  const devices = new Map<string, SimulatedDevice>();
  const specs = new Map(spec.devices.map((d) => [d.id, d]));
  const started = performance.now();
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;

  const sleepUntil = (at: number) =>
    new Promise<void>((resolve) => {
      const wait = at - (performance.now() - started);
      if (wait <= 0) return resolve();
      wake = resolve;
      timer = setTimeout(resolve, wait);
    });

  const plug = async (id: string): Promise<SimulatedDevice> => {
    const existing = devices.get(id);
    if (existing) {
      await existing.plug();
      return existing;
    }
    const { id: _id, link, ...device } = specs.get(id)!;
    const ptyDir = device.ptyDir ?? spec.defaults?.ptyDir ?? join(simulatorDir(), 'pty');
    const simulated = await startSimulatedDevice({
      ...spec.defaults,
      ...device,
      faults: { ...spec.defaults?.faults, ...device.faults },
      link: typeof link === 'string' ? parseLink(link) : link,
      stateDir: device.stateDir ?? join(spec.stateDir, id),
      publicKeyPem: device.publicKeyPem ?? spec.publicKeyPem,
      ptyDir,
      // Named by id, so two devices with one serial number each have a port of their own.
      ptyPath: device.ptyPath ?? join(ptyDir, id),
    });
    devices.set(id, simulated);
    return simulated;
  };

  const finished = (async () => {
    for (const step of spec.steps) {
      await sleepUntil(step.at);
      if (stopping) return;
      const device = step.action === 'plug' ? await plug(step.id) : devices.get(step.id)!;
      if (step.action === 'unplug') await device.unplug();
      options.onStep?.({ at: step.at, action: step.action, id: step.id, device });
    }
  })();
  finished.catch(() => undefined);

  return {
    devices,
    finished,
    stop: async () => {
      stopping = true;
      clearTimeout(timer);
      wake?.();
      await finished.catch(() => undefined);
      await Promise.allSettled([...devices.values()].map((d) => d.stop()));
    },
  };
}
