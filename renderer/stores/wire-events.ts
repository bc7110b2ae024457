import { client } from '../api/client';
import { useWorkbench } from './workbench';
import { useOutbox } from './outbox';
import { useSession } from './session';

/** Connects the core's event streams to the stores, once at start. Returns the unsubscriber. */
export function wireEvents(): () => void {
  const api = client();
  const offs = [
    api.on('session.changed', (session) => useSession.getState().apply(session)),
    api.on('workbench.devicesChanged', (devices) => useWorkbench.getState().applyDevices(devices)),
    api.on('jobs.progress', (jobs) => useWorkbench.getState().applyJobs(jobs)),
    api.on('outbox.changed', (outbox) => useOutbox.getState().applyOutbox(outbox)),
    api.on('logs.line', (line) => useOutbox.getState().appendLine(line)),
  ];
  return () => offs.forEach((off) => off());
}
