/**
 * How long typing must pause before a list's search goes to the service: one request per word
 * typed, not per key (the screens wait this long; the devices-screen bench reports it).
 */
export const SEARCH_DEBOUNCE_MS = 250;
