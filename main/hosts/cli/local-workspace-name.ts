/**
 * The outbox's name for the local workspace: its URL changes from run to run (a free loopback
 * port), so its confirmations are filed under this fixed name and still reach it in a later run.
 */
export const LOCAL_WORKSPACE_SERVICE = 'local-workspace';
