import { z } from 'zod';
import type { InvokeOutcome } from './errors';
import type { EventStream } from './events';

/**
 * Web mode: the same contract as JSON messages over one WebSocket (main/hosts/web/server.ts,
 * renderer/bridge/websocket.ts).
 */

/** Query parameter carrying the per-run token on the WebSocket URL (`/contract?token=...`). */
export const WEB_TOKEN_PARAM = 'token';
export const WEB_SOCKET_PATH = '/contract';

export const webClientMessageSchema = z.object({
  type: z.literal('invoke'),
  id: z.number().int().nonnegative(),
  channel: z.string().max(100),
  input: z.unknown(),
});
export type WebClientMessage = z.infer<typeof webClientMessageSchema>;

export type WebServerMessage =
  | { type: 'result'; id: number; outcome: InvokeOutcome<unknown> }
  | { type: 'event'; stream: EventStream; payload: unknown };
