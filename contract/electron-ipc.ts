/** Electron IPC channel names that carry the contract (one for calls, one for events). */
export const IPC_INVOKE_CHANNEL = 'provisioner:invoke';
export const IPC_EVENT_CHANNEL = 'provisioner:event';

/**
 * The renderer asks the Electron shell to draw its own menus and dialogs in the app's theme. Not a
 * contract channel: the core knows nothing of windows. One value, checked by the shell
 * (main/hosts/electron/native-theme.ts) and accepted only from our window.
 */
export const IPC_NATIVE_THEME_CHANNEL = 'provisioner:native-theme';

/** What Electron's nativeTheme.themeSource takes: the system's appearance, or light or dark. */
export const NATIVE_THEME_SOURCES = ['system', 'light', 'dark'] as const;
export type NativeThemeSource = (typeof NATIVE_THEME_SOURCES)[number];

export function isNativeThemeSource(value: unknown): value is NativeThemeSource {
  return typeof value === 'string' && (NATIVE_THEME_SOURCES as readonly string[]).includes(value);
}

/** Why a value is not a theme source, for the error: never throws on what it is given, never long. */
export function nativeThemeRefusal(value: unknown): string {
  const given =
    typeof value === 'string' ? JSON.stringify(value).slice(0, 80) : `(${value === null ? 'null' : typeof value})`;
  return `Invalid native theme ${given}: use one of ${NATIVE_THEME_SOURCES.join(', ')}`;
}
