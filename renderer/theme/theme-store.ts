import { create } from 'zustand';
import {
  nativeThemeSource,
  parseThemeChoice,
  resolveTheme,
  SYSTEM_QUERIES,
  type SystemAppearance,
  type Theme,
  type ThemeChoice,
} from './theme-choice';

/**
 * The workstation's theme: the choice kept in localStorage (per workstation, not per account: the
 * light of the hall belongs to the place), resolved against the operating system's media queries
 * and put on <html> as `data-theme` (the palette) and `data-theme-choice` (what was chosen), which
 * the stylesheet's custom properties switch on. A change of the system's appearance while the app
 * runs is followed when the choice is `system`.
 */

export const THEME_STORAGE_KEY = 'provisioner.theme';

interface ThemeState {
  choice: ThemeChoice;
  theme: Theme;
  choose(choice: ThemeChoice): void;
}

function systemAppearance(view: Window): SystemAppearance {
  const matches = (query: string) => (typeof view.matchMedia === 'function' ? view.matchMedia(query).matches : false);
  return {
    dark: matches(SYSTEM_QUERIES.dark),
    moreContrast: matches(SYSTEM_QUERIES.moreContrast),
    forcedColors: matches(SYSTEM_QUERIES.forcedColors),
  };
}

function readChoice(view: Window): ThemeChoice {
  try {
    return parseThemeChoice(view.localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    // Storage refused (a locked-down profile): the system's appearance still applies.
    return 'system';
  }
}

function writeChoice(view: Window, choice: ThemeChoice): void {
  try {
    if (choice === 'system') view.localStorage.removeItem(THEME_STORAGE_KEY);
    else view.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Not kept for the next start; this run still shows it.
  }
}

function applyToDocument(root: HTMLElement, choice: ThemeChoice, theme: Theme): void {
  root.dataset.theme = theme;
  root.dataset.themeChoice = choice;
}

export const useTheme = create<ThemeState>(() => ({
  choice: 'system',
  theme: 'light',
  choose: () => undefined,
}));

/**
 * In Electron, the shell draws its own menus and dialogs in the chosen theme (the preload's
 * setNativeTheme; main/hosts/electron/native-theme.ts). Told once per change of what it draws:
 * the choice switching the shell's theme switches the page's media queries too, which calls
 * update again with the same choice. Web mode has no such shell and nothing to tell.
 */
function shellThemeTeller(view: Window): (choice: ThemeChoice) => void {
  let told: string | undefined;
  return (choice) => {
    const api = view.provisioner;
    const source = nativeThemeSource(choice);
    if (!api?.setNativeTheme || source === told) return;
    told = source;
    api.setNativeTheme(source).catch((error: unknown) => {
      // The page is in the theme already; only the shell's menus stay as they were.
      told = undefined;
      console.warn('The shell did not take the theme', error);
    });
  };
}

/**
 * Reads the stored choice, applies it, and follows the system's media queries from then on.
 * Runs once when this module is first imported (below), before the first render, so the sign-in
 * page is already in the theme; a second call replaces the first. Returns the undo (tests).
 */
let stopRunning: (() => void) | undefined;
export function startTheme(view: Window = window): () => void {
  stopRunning?.();
  const root = view.document.documentElement;
  const tellShell = shellThemeTeller(view);
  const update = (choice: ThemeChoice) => {
    const theme = resolveTheme(choice, systemAppearance(view));
    applyToDocument(root, choice, theme);
    useTheme.setState({ choice, theme });
    tellShell(choice);
  };
  useTheme.setState({
    choose: (choice) => {
      writeChoice(view, choice);
      update(choice);
    },
  });
  update(readChoice(view));

  const onSystemChange = () => update(useTheme.getState().choice);
  const lists =
    typeof view.matchMedia === 'function' ? Object.values(SYSTEM_QUERIES).map((query) => view.matchMedia(query)) : [];
  for (const list of lists) list.addEventListener('change', onSystemChange);
  // Another window of the same workstation (web mode's second tab) chose: follow it.
  const onStorage = (event: StorageEvent) => {
    if (event.key === THEME_STORAGE_KEY) update(parseThemeChoice(event.newValue));
  };
  view.addEventListener('storage', onStorage);
  const stop = () => {
    for (const list of lists) list.removeEventListener('change', onSystemChange);
    view.removeEventListener('storage', onStorage);
    if (stopRunning === stop) stopRunning = undefined;
  };
  stopRunning = stop;
  return stop;
}

// The app imports this module (through ThemeSelect) before it renders: the theme is on <html> from
// the first paint, with nothing to call from main.tsx.
if (typeof window !== 'undefined' && typeof document !== 'undefined') startTheme(window);
