/**
 * Every error code a technician can meet (device, link, file, cache, service, outbox, app), in
 * the words of someone at a bench: what happened, why it matters, what to do. The words are in the
 * `errors` catalogs (domain/i18n/locales/<language>/errors.json, keys `CODE.what`, `CODE.why`,
 * `CODE.todo`), English the source; this file lists the codes and their areas. docs/errors.md is
 * made from the English (`npx tsx scripts/errors-doc.ts > docs/errors.md`); the UI and the CLI show
 * an entry's text first and the code after it, for support. Codes never change with the language.
 * A test checks that every code the service, the device protocol and the host code can produce has
 * an entry here, and that no text names an HTTP method, a route, an internal type or a stack.
 */
import { CATALOGS, createTranslator, type Translator } from './i18n/index.js';

export const ERROR_AREAS = ['device', 'link', 'file', 'cache', 'service', 'outbox', 'app'] as const;
export type ErrorArea = (typeof ERROR_AREAS)[number];

export interface ErrorCatalogueEntry {
  /** The stable code; a trailing `*` stands for a family (`COAP_4.04`, `HTTP_502`). */
  code: string;
  area: ErrorArea;
  /** What happened (English). */
  what: string;
  /** Why it matters (English). */
  why: string;
  /** What to do (English). */
  todo: string;
}

/** An entry's three texts in one language. */
export interface ErrorTexts {
  what: string;
  why: string;
  todo: string;
}

/** Anything that translates a catalog key: a domain/i18n Translator, or the renderer's. */
export type ErrorTranslator = Pick<Translator, 't'>;

const ENGLISH = createTranslator('en');
const englishErrors = CATALOGS.en.errors;

/** The catalog key of one of an entry's texts; `CODE.what`, `CODE.why`, `CODE.todo`. */
export function errorKey(code: string, part: keyof ErrorTexts): string {
  return `errors:${code}.${part}`;
}

const e = (code: string, area: ErrorArea): ErrorCatalogueEntry => ({
  code,
  area,
  what: englishErrors[`${code}.what`] ?? code,
  why: englishErrors[`${code}.why`] ?? code,
  todo: englishErrors[`${code}.todo`] ?? code,
});

export const ERROR_CATALOGUE: readonly ErrorCatalogueEntry[] = [
  // The device refused something (its own answer).
  e('BAD_REQUEST', 'device'),
  e('FS_FILE_MISMATCH', 'device'),
  e('NOT_FOUND', 'device'),
  e('BUSY', 'device'),
  e('METHOD_NOT_ALLOWED', 'device'),
  e('BLOCK_TOO_LARGE', 'device'),
  e('INTERNAL_ERROR', 'device'),
  e('FW_NOT_ANNOUNCED', 'device'),
  e('FW_TOO_LARGE', 'device'),
  e('FW_OUT_OF_WINDOW', 'device'),
  e('FW_INCOMPLETE', 'device'),
  e('FW_HASH_MISMATCH', 'device'),
  e('FW_WRONG_TYPE', 'device'),
  e('FW_BAD_HEADER', 'device'),
  e('FW_UNSIGNED', 'device'),
  e('FW_BAD_SIGNATURE', 'device'),
  e('FW_UNTRUSTED_KEY', 'device'),
  e('FW_KEY_RETIRED', 'device'),
  e('FW_ROLLBACK', 'device'),
  e('FW_CODING_UNSUPPORTED', 'device'),
  e('FW_CODING_CORRUPT', 'device'),
  e('FW_BASE_MISMATCH', 'device'),
  e('FW_APPLY_FAILED', 'device'),
  e('FW_BAD_OFFSET', 'device'),
  e('FW_NOT_RUNNING', 'device'),
  e('CONFIG_BAD_FORMAT', 'file'),
  e('CONFIG_CHECKSUM_MISMATCH', 'file'),
  e('CONFIG_BAD_SIGNATURE', 'file'),
  e('CONFIG_WRONG_DEVICE', 'file'),
  e('CONFIG_WRONG_TYPE', 'file'),
  e('CONFIG_TOO_LARGE', 'device'),
  e('CONFIG_WRONG_ORGANIZATION', 'device'),
  e('CONFIG_SUPERSEDED', 'device'),
  e('CONFIG_OUT_OF_WINDOW', 'device'),
  e('CONFIG_NOT_APPLIED', 'device'),
  e('PARAMETERS_MISMATCH', 'device'),
  e('PARAMETERS_NOT_CONFIRMED', 'file'),
  e('CONFIG_SYNC_ID_MISMATCH', 'device'),
  e('DEVICE_MISMATCH', 'device'),
  e('DIFFERENT_DEVICE', 'link'),
  e('DEVICE_PROTOCOL', 'device'),
  e('COAP_RESET', 'link'),
  e('COAP_*', 'device'),
  // The link to the device.
  e('DEVICE_DISCONNECTED', 'link'),
  e('DEVICE_GONE', 'link'),
  e('DEVICE_NOT_ANSWERING', 'link'),
  e('DEVICE_TIMEOUT', 'link'),
  e('DEVICE_UNREACHABLE', 'link'),
  e('DEVICE_NOT_FOUND', 'link'),
  e('CANCELLED', 'app'),
  // Files.
  e('FW_BAD_BUNDLE', 'file'),
  e('FW_BUNDLE_TOO_LARGE', 'file'),
  e('FW_SIZE_MISMATCH', 'file'),
  e('FW_WRONG_VERSION', 'file'),
  e('RELEASE_KEY_INVALID', 'file'),
  e('WP_NOT_A_PACKAGE', 'file'),
  e('WP_TAMPERED', 'file'),
  e('WP_EXPIRED', 'file'),
  e('WP_NOT_YET_VALID', 'file'),
  e('WP_TOO_LARGE', 'file'),
  e('WP_WRONG_ORGANIZATION', 'file'),
  e('WP_UNTRUSTED_SIGNER', 'file'),
  e('WP_NO_TRUSTED_ROOT', 'file'),
  e('WP_TOO_LONG', 'file'),
  e('WP_ROOT_KEY_MISMATCH', 'file'),
  e('WP_NOTHING_TO_EXPORT', 'outbox'),
  e('WP_NO_SUCH_CONFIGURATION', 'file'),
  e('WP_AMBIGUOUS_CONFIGURATION', 'file'),
  e('WP_EMPTY_CONFIGURATION', 'file'),
  e('WP_CONFIGURATION_INCOMPLETE', 'file'),
  e('WP_SERVICE_INCONSISTENT', 'file'),
  e('WP_SERVICE_UNREACHABLE', 'file'),
  // The firmware cache and kept files, when the service cannot be reached.
  e('NO_FIRMWARE_CACHED', 'cache'),
  e('NO_CONFIG_FILE_CACHED', 'cache'),
  e('FW_RELEASE_KEYS_UNKNOWN', 'cache'),
  // The service.
  e('SERVICE_UNREACHABLE', 'service'),
  e('SERVICE_ANSWER', 'service'),
  e('SERVICE_ERROR', 'service'),
  e('HTTP_*', 'service'),
  e('DATABASE_UNAVAILABLE', 'service'),
  e('CONCURRENT_CHANGE', 'service'),
  e('DEVICE_NOT_IN_CONFIGURATION', 'service'),
  e('CONFIGURATION_INCOMPLETE', 'service'),
  e('CONFIGURATION_NOT_FOUND', 'service'),
  e('DEVICE_NOT_REGISTERED', 'service'),
  e('DEVICE_ALREADY_REGISTERED', 'service'),
  e('DEVICE_REGISTERED_ELSEWHERE', 'service'),
  e('DEVICE_ALREADY_IN_CONFIGURATION', 'service'),
  e('DEVICE_IN_OTHER_CONFIGURATION', 'service'),
  e('DEVICE_IN_CONFIGURATION', 'service'),
  e('SERIAL_NUMBER_UNKNOWN', 'service'),
  e('FIRMWARE_NOT_AVAILABLE', 'service'),
  e('FIRMWARE_PATCH_NOT_AVAILABLE', 'service'),
  e('SYNC_ID_NOT_FOUND', 'service'),
  e('SYNC_ID_NOT_ISSUED', 'outbox'),
  e('IDEMPOTENCY_KEY_INVALID', 'outbox'),
  e('IDEMPOTENCY_KEY_REUSED', 'outbox'),
  e('LEDGER_ENTRY_INVALID', 'outbox'),
  e('LEDGER_ENTRY_OTHER_ORGANIZATION', 'outbox'),
  e('LEDGER_KEY_NOT_ENROLLED', 'outbox'),
  e('WORKSTATION_PROOF_INVALID', 'service'),
  e('WORKSTATION_ROTATION_ADMIN_ONLY', 'service'),
  e('WORKSTATION_KEY_TAKEN', 'service'),
  e('WORK_PACKAGE_REFUSED', 'service'),
  e('WORKSTATION_HAS_KEY', 'service'),
  e('WORKSTATION_GRANT_INVALID', 'service'),
  e('WORKSTATION_KEY_NOT_FOUND', 'service'),
  e('API_KEY_NAME_TAKEN', 'service'),
  e('API_KEY_MISSING', 'service'),
  e('API_KEY_INVALID', 'service'),
  e('AUTHORIZATION_MALFORMED', 'service'),
  e('API_KEY_NOT_FOUND', 'service'),
  e('KEY_FORMAT_FORBIDDEN', 'service'),
  e('ROLE_FORBIDDEN', 'service'),
  e('ROLE_ESCALATION_FORBIDDEN', 'service'),
  e('ORGANIZATION_FORBIDDEN', 'service'),
  e('ORGANIZATION_NOT_FOUND', 'service'),
  e('METRICS_FORBIDDEN', 'service'),
  e('TEMPLATE_NOT_FOUND', 'service'),
  e('USER_NOT_FOUND', 'service'),
  e('USER_ALREADY_EXISTS', 'service'),
  e('BODY_REQUIRED', 'service'),
  e('BODY_TOO_LARGE', 'service'),
  e('INVALID_JSON', 'service'),
  e('INVALID_CONTENT_LENGTH', 'service'),
  e('UNSUPPORTED_MEDIA_TYPE', 'service'),
  e('NUL_CHARACTER', 'service'),
  e('REQUEST_REJECTED', 'service'),
  e('ROUTE_NOT_FOUND', 'service'),
  // The app itself.
  e('NOT_SIGNED_IN', 'app'),
  e('AUTH_FAILED', 'app'),
  e('NOT_ALLOWED', 'app'),
  e('INSECURE_SERVICE_URL', 'app'),
  e('INVALID_SERVICE_URL', 'app'),
  e('INVALID_INPUT', 'app'),
  e('VALIDATION', 'app'),
  e('CONFLICT', 'app'),
  e('DEVICE_ERROR', 'app'),
  e('UNKNOWN_CHANNEL', 'app'),
  e('INTERNAL', 'app'),
];

const BY_CODE = new Map(ERROR_CATALOGUE.map((entry) => [entry.code, entry]));

/** The entry for a code, or for its family (`COAP_4.04` → `COAP_*`); undefined for a code not in the catalogue. */
export function catalogueEntry(code: string): ErrorCatalogueEntry | undefined {
  const exact = BY_CODE.get(code);
  if (exact) return exact;
  for (const entry of ERROR_CATALOGUE)
    if (entry.code.endsWith('*') && code.startsWith(entry.code.slice(0, -1))) return entry;
  return undefined;
}

/** What happened, why it matters and what to do for a code, in the translator's language (English by default). */
export function errorTexts(code: string, translator: ErrorTranslator = ENGLISH): ErrorTexts | undefined {
  const entry = catalogueEntry(code);
  if (!entry) return undefined;
  return {
    what: translator.t(errorKey(entry.code, 'what')),
    why: translator.t(errorKey(entry.code, 'why')),
    todo: translator.t(errorKey(entry.code, 'todo')),
  };
}

/**
 * What happened and what to do, in one line, for the technician, in the translator's language
 * (English by default); the caller shows the code after it. The two sentences are joined by the
 * catalog's `advice` message, since languages join sentences differently (Chinese without a space).
 */
export function errorAdvice(code: string, translator: ErrorTranslator = ENGLISH): string | null {
  const texts = errorTexts(code, translator);
  return texts ? translator.t('errors:advice', { what: texts.what, todo: texts.todo }) : null;
}
