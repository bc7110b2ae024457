/** Electron IPC channel names that carry the contract (one for calls, one for events). */
export const IPC_INVOKE_CHANNEL = 'provisioner:invoke';
export const IPC_EVENT_CHANNEL = 'provisioner:event';
