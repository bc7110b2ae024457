import type { Channel, ChannelResult, ParsedInput } from '../../../contract/index';

export type Handler<C extends Channel> = (input: ParsedInput<C>) => Promise<ChannelResult<C>>;
/** Handlers of some channels; the core checks that the groups together cover every channel. */
export type HandlerGroup<C extends Channel> = { [K in C]: Handler<K> };
export type AllHandlers = HandlerGroup<Channel>;
