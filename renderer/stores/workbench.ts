import { create } from 'zustand';
import type { AttachedDeviceView, JobAction, JobView, ParameterConfirmationView } from '../../contract/index';
import { client, errorText } from '../api/client';
import { isFinished } from '../format/progress-status';

interface WorkbenchState {
  devices: AttachedDeviceView[];
  /** Latest state of every job of this session, by id. */
  jobs: Record<string, JobView>;
  /** linkIds the technician ticked. */
  selected: string[];
  loaded: boolean;
  error: string | null;
  /** Parameter tables a person confirmed this session, by job id (the function test follows them). */
  parameterConfirmations: Record<string, ParameterConfirmationView>;
  load(): Promise<void>;
  rescan(): Promise<void>;
  toggle(linkId: string): void;
  selectAll(on: boolean): void;
  start(action: JobAction, linkIds: readonly string[]): Promise<void>;
  cancel(jobId: string): Promise<void>;
  retry(jobId: string): Promise<void>;
  clearFinished(): Promise<void>;
  /** From the event streams. */
  applyDevices(devices: AttachedDeviceView[]): void;
  applyJobs(jobs: JobView[]): void;
  parametersConfirmed(jobId: string, confirmation: ParameterConfirmationView): void;
}

export const useWorkbench = create<WorkbenchState>((set, get) => ({
  devices: [],
  jobs: {},
  selected: [],
  loaded: false,
  error: null,
  parameterConfirmations: {},
  async load() {
    try {
      const [devices, jobs] = await Promise.all([
        client().call('workbench.devices', {}),
        client().call('workbench.jobs', {}),
      ]);
      get().applyDevices(devices);
      set({ jobs: byId(jobs), loaded: true, error: null });
    } catch (err) {
      set({ loaded: true, error: errorText(err) });
    }
  },
  async rescan() {
    try {
      get().applyDevices(await client().call('workbench.rescan', {}));
      set({ error: null });
    } catch (err) {
      set({ error: errorText(err) });
    }
  },
  toggle: (linkId) =>
    set((s) => ({
      selected: s.selected.includes(linkId) ? s.selected.filter((id) => id !== linkId) : [...s.selected, linkId],
    })),
  selectAll: (on) => set((s) => ({ selected: on ? selectableLinkIds(s.devices, s.jobs) : [] })),
  async start(action, linkIds) {
    try {
      get().applyJobs(await client().call('workbench.start', { action, linkIds: [...linkIds] }));
      // Started devices leave the selection: the next action is for the next batch.
      set((s) => ({ error: null, selected: s.selected.filter((id) => !linkIds.includes(id)) }));
    } catch (err) {
      set({ error: errorText(err) });
    }
  },
  async cancel(jobId) {
    try {
      await client().call('workbench.cancel', { jobId });
    } catch (err) {
      set({ error: errorText(err) });
    }
  },
  async retry(jobId) {
    try {
      get().applyJobs([await client().call('workbench.retry', { jobId })]);
    } catch (err) {
      set({ error: errorText(err) });
    }
  },
  async clearFinished() {
    set({ jobs: byId(await client().call('workbench.clearFinished', {})) });
  },
  applyDevices: (devices) =>
    set((s) => ({
      devices,
      // A device that was unplugged cannot stay selected.
      selected: s.selected.filter((id) => devices.some((d) => d.linkId === id)),
    })),
  applyJobs: (jobs) =>
    set((s) => {
      const next = { ...s.jobs };
      for (const job of jobs) {
        const known = next[job.jobId];
        // Events may overtake a call's answer: never go back to an older state.
        if (!known || known.updatedAt <= job.updatedAt) next[job.jobId] = job;
      }
      return { jobs: next };
    }),
  parametersConfirmed: (jobId, confirmation) =>
    set((s) => ({ parameterConfirmations: { ...s.parameterConfirmations, [jobId]: confirmation } })),
}));

function byId(jobs: readonly JobView[]): Record<string, JobView> {
  return Object.fromEntries(jobs.map((j) => [j.jobId, j]));
}

/** Devices that can take a job now: identified, and not busy with one. */
export function selectableLinkIds(devices: readonly AttachedDeviceView[], jobs: Record<string, JobView>): string[] {
  return devices.filter((d) => isSelectable(d, jobs)).map((d) => d.linkId);
}

export function isSelectable(device: AttachedDeviceView, jobs: Record<string, JobView>): boolean {
  if (device.serialNumber === null) return false;
  return !isBusy(device, jobs);
}

export function isBusy(device: AttachedDeviceView, jobs: Record<string, JobView>): boolean {
  const job = device.activeJobId ? jobs[device.activeJobId] : undefined;
  return job !== undefined && !isFinished(job);
}

/** The job to show on a device's row: the newest job for its link. */
export function jobForDevice(device: AttachedDeviceView, jobs: Record<string, JobView>): JobView | null {
  if (device.activeJobId && jobs[device.activeJobId]) return jobs[device.activeJobId] ?? null;
  let newest: JobView | null = null;
  for (const job of Object.values(jobs)) {
    if (job.linkId === device.linkId && (!newest || job.startedAt > newest.startedAt)) newest = job;
  }
  return newest;
}
