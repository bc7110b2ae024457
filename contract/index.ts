/**
 * The one contract between the renderer and the core that hosts the device I/O and the service
 * client. Main (Electron IPC), the preload, the web-mode WebSocket bridge and the renderer all
 * import it; nothing else defines a channel. One module per channel group declares its channels
 * (kind, input schema, result type) and the views they return; channels.ts joins them into the
 * CONTRACT table.
 *
 * The renderer imports types only from here (eslint.config.js enforces it): the input schemas are
 * zod, which the page has no use for, since main parses every input.
 *
 * Secrets never travel towards the renderer: the API key goes in on sign-in and is kept in main;
 * no result type has a field that could carry it.
 */
export type { Page } from '../domain/records';
// The job vocabulary lives in the domain so the core, the CLI and the renderer share it.
export { FINISHED_PHASES, JOB_ACTIONS, JOB_PHASES, type JobAction, type JobPhase, type JobView } from '../domain/jobs';

export type { ChannelSpec } from './channel-spec';
export * from './session';
export * from './configurations';
export * from './registry';
export * from './firmware';
export * from './downloads';
export * from './workbench';
export * from './jobs';
export * from './outbox';
export * from './ledger';
export * from './readback';
export * from './support';
export * from './station';
export * from './packages';
export * from './accountability';
export * from './simulation';
export * from './channels';
export * from './events';
export * from './errors';
export * from './ends';
export * from './electron-ipc';
export * from './web-socket';
