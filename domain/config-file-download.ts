/**
 * The response header that carries a downloaded configuration file's syncId (the same value as in
 * the file); confirm-apply-configuration names it. The service sets it, the client reads it; HTTP
 * header names are case-insensitive, so Headers.get finds it as any proxy spells it.
 */
export const SYNC_ID_HEADER = 'X-Config-File-Sync-Id';
