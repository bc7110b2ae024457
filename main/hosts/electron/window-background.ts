/**
 * The window's colour before the renderer paints: the page ground (`--bg` of
 * renderer/styles/app.css) of the palette the operating system asks for, so a dark or
 * high-contrast workstation gets no white flash at start. Electron's nativeTheme says what the
 * system asks for; the renderer then applies the technician's own choice (renderer/theme).
 */

/** What nativeTheme reports (the two fields read), so this stays free of Electron for tests. */
export interface NativeAppearance {
  shouldUseDarkColors: boolean;
  shouldUseHighContrastColors: boolean;
}

/** `--bg` of the light, dark and high-contrast palettes (the palette test checks they agree). */
export const WINDOW_BACKGROUNDS = { light: '#f3f5f8', dark: '#0e1319', 'high-contrast': '#000000' } as const;

export function windowBackground(appearance: NativeAppearance): string {
  if (appearance.shouldUseHighContrastColors) return WINDOW_BACKGROUNDS['high-contrast'];
  return appearance.shouldUseDarkColors ? WINDOW_BACKGROUNDS.dark : WINDOW_BACKGROUNDS.light;
}
