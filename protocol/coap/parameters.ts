/**
 * CoAP protocol constants, named as in the RFCs (after node-coap's lib/parameters.ts).
 * RFC 7252 §4.8 transmission parameters; §12 registries; RFC 7959 block options; RFC 7641 Observe.
 */

/** RFC 7252 §4.8. ACK_TIMEOUT is each link's own (ACK_TIMEOUT_MS in protocol/constants.ts). */
export const ACK_RANDOM_FACTOR = 1.5;
export const MAX_RETRANSMIT = 4;

/** RFC 7252 §3: the version every message carries. */
export const COAP_VERSION = 1;
/** Message ids are 16 bits. */
export const MESSAGE_ID_MODULUS = 0x10000;

/** RFC 7252 §12.2 option numbers (and RFC 7641, RFC 7959). */
export const OPTION = {
  IF_MATCH: 1,
  URI_HOST: 3,
  ETAG: 4,
  IF_NONE_MATCH: 5,
  OBSERVE: 6,
  URI_PORT: 7,
  LOCATION_PATH: 8,
  URI_PATH: 11,
  CONTENT_FORMAT: 12,
  MAX_AGE: 14,
  URI_QUERY: 15,
  ACCEPT: 17,
  /** RFC 9177 §4: Block1 for NON requests in payload sets; same value encoding as Block1. */
  Q_BLOCK1: 19,
  LOCATION_QUERY: 20,
  BLOCK2: 23,
  BLOCK1: 27,
  /** RFC 9177 §4. */
  Q_BLOCK2: 31,
  SIZE2: 28,
  PROXY_URI: 35,
  PROXY_SCHEME: 39,
  SIZE1: 60,
  /** RFC 9175 §3: names one request body, so payloads of an earlier body are never mixed in. */
  REQUEST_TAG: 292,
} as const;

/** RFC 7252 §12.1 method and response codes, in the "c.dd" form coap-packet uses. */
export const CODE = {
  EMPTY: '0.00',
  GET: '0.01',
  POST: '0.02',
  PUT: '0.03',
  DELETE: '0.04',
  CREATED: '2.01',
  DELETED: '2.02',
  VALID: '2.03',
  CHANGED: '2.04',
  CONTENT: '2.05',
  /** RFC 7959 §2.9.1. */
  CONTINUE: '2.31',
  BAD_REQUEST: '4.00',
  UNAUTHORIZED: '4.01',
  BAD_OPTION: '4.02',
  FORBIDDEN: '4.03',
  NOT_FOUND: '4.04',
  METHOD_NOT_ALLOWED: '4.05',
  NOT_ACCEPTABLE: '4.06',
  /** RFC 7959 §2.9.2. */
  REQUEST_ENTITY_INCOMPLETE: '4.08',
  /** RFC 8132 §6.3.1. */
  CONFLICT: '4.09',
  PRECONDITION_FAILED: '4.12',
  REQUEST_ENTITY_TOO_LARGE: '4.13',
  UNSUPPORTED_CONTENT_FORMAT: '4.15',
  INTERNAL_SERVER_ERROR: '5.00',
  NOT_IMPLEMENTED: '5.01',
  BAD_GATEWAY: '5.02',
  SERVICE_UNAVAILABLE: '5.03',
  GATEWAY_TIMEOUT: '5.04',
} as const;

/** RFC 7641 §2: Observe values in a GET. */
export const OBSERVE_REGISTER = 0;
export const OBSERVE_DEREGISTER = 1;

/** RFC 7959 §2.2: SZX 0..6 gives 16..1024 bytes; 7 is reserved (BERT on TCP only). */
export const BLOCK_SZX_MAX = 6;

/** RFC 9177 §5: Content-Format of a 4.08 listing the missing blocks (a CBOR Sequence of block numbers). */
export const CONTENT_FORMAT_MISSING_BLOCKS = 272;

/**
 * RFC 9177 §7.2 MAX_PAYLOADS when a device's /info gives none (`qBlock1MaxPayloads`,
 * docs/device-protocol.md 2.2): a Q-Block1 payload set is the blocks whose NUM divided by it
 * (rounded down) is the same, and the host waits for the device's answer after each set. The RFC's default is 10; at 1 MB/s with a few
 * milliseconds between the end of one set and the start of the next, 10 blocks of 1024 bytes would
 * leave the wire idle a third of the time, 128 about a twentieth (measured: docs/performance.md).
 */
export const Q_BLOCK_MAX_PAYLOADS = 128;
