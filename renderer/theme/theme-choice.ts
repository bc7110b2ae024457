/**
 * The theme a workstation shows: the technician's choice (or the operating system's, by default)
 * resolved into one of three palettes. Pure: the store (theme-store.ts) reads the media queries
 * and the stored choice and hands them here.
 */
import type { NativeThemeSource } from '../../contract/index';

/** What the technician can choose; `system` follows the operating system. */
export const THEME_CHOICES = ['system', 'light', 'dark', 'high-contrast'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

/** The palettes the stylesheet defines, one per value of `<html data-theme>`. */
export const THEMES = ['light', 'dark', 'high-contrast'] as const;
export type Theme = (typeof THEMES)[number];

/** What the operating system asks for, as the browser's media queries report it. */
export interface SystemAppearance {
  /** `(prefers-color-scheme: dark)` */
  dark: boolean;
  /** `(prefers-contrast: more)` */
  moreContrast: boolean;
  /** `(forced-colors: active)`: Windows' contrast themes and the like, which replace the page's colours. */
  forcedColors: boolean;
}

/** The media queries SystemAppearance is read from, in its field order. */
export const SYSTEM_QUERIES = {
  dark: '(prefers-color-scheme: dark)',
  moreContrast: '(prefers-contrast: more)',
  forcedColors: '(forced-colors: active)',
} as const satisfies Record<keyof SystemAppearance, string>;

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return typeof value === 'string' && (THEME_CHOICES as readonly string[]).includes(value);
}

/** A stored value read back: anything unknown (an older build's value, a hand edit) is the default, `system`. */
export function parseThemeChoice(stored: string | null | undefined): ThemeChoice {
  return isThemeChoice(stored) ? stored : 'system';
}

/**
 * The palette to show. A system that asks for more contrast, or forces its own colours, gets the
 * high-contrast palette even when it is also dark: contrast is the stronger need.
 */
export function resolveTheme(choice: ThemeChoice, system: SystemAppearance): Theme {
  if (choice !== 'system') return choice;
  if (system.forcedColors || system.moreContrast) return 'high-contrast';
  return system.dark ? 'dark' : 'light';
}

/**
 * What the Electron shell draws its own menus and dialogs in (nativeTheme.themeSource) for a
 * choice. High contrast is left to the operating system ('system'): Electron has no high-contrast
 * source, and a system in a contrast theme draws its menus in its own contrast colours.
 */
export function nativeThemeSource(choice: ThemeChoice): NativeThemeSource {
  return choice === 'light' || choice === 'dark' ? choice : 'system';
}
