import { create } from 'zustand';
import {
  isCatalogLanguage,
  isLanguage,
  resolveLanguage,
  type CatalogLanguage,
  type Language,
} from '../../domain/i18n/index.js';

/**
 * Which language the screens speak. The operating system decides (Electron's locale and the
 * browser's languages both reach the page as `navigator.languages`) unless the technician chose
 * one on this workstation (kept in localStorage, which Electron keeps per user profile). Web mode
 * also takes `?lang=de` (or the pseudo-locale `?lang=en-XA`) from the page's address, for this
 * page only, so that a test or a support link can open the app in a given language.
 */

const CHOICE_KEY = 'provisioner.language';
const ADDRESS_PARAM = 'lang';

export interface LanguageState {
  /** The language the operating system or the browser asks for. */
  system: CatalogLanguage;
  /** The technician's choice on this workstation, or null to follow the system. */
  chosen: Language | null;
  /** The language the page's address asks for (`?lang=`), or null. */
  fromAddress: CatalogLanguage | null;
  /** Keep a choice (null: follow the system again). It also ends the address's language. */
  choose(language: Language | null): void;
  /** The system's languages changed (the `languagechange` event). */
  systemChanged(languages: readonly string[]): void;
}

/** The language the screens speak now. */
export function currentLanguage(state: Pick<LanguageState, 'system' | 'chosen' | 'fromAddress'>): CatalogLanguage {
  return state.fromAddress ?? state.chosen ?? state.system;
}

export function languageFromAddress(search: string): CatalogLanguage | null {
  const asked = new URLSearchParams(search).get(ADDRESS_PARAM);
  return isCatalogLanguage(asked) ? asked : null;
}

function readChoice(storage: Storage | undefined): Language | null {
  try {
    const stored = storage?.getItem(CHOICE_KEY);
    return isLanguage(stored) ? stored : null;
  } catch {
    // Storage refused (a sandboxed page): follow the system.
    return null;
  }
}

function writeChoice(storage: Storage | undefined, language: Language | null): void {
  try {
    if (language === null) storage?.removeItem(CHOICE_KEY);
    else storage?.setItem(CHOICE_KEY, language);
  } catch {
    // Not kept: the choice lasts while the page is open.
  }
}

const hasWindow = typeof window !== 'undefined';
const storage = hasWindow ? window.localStorage : undefined;

export const useLanguage = create<LanguageState>((set) => ({
  system: resolveLanguage(hasWindow ? [...window.navigator.languages] : []),
  chosen: readChoice(storage),
  fromAddress: hasWindow ? languageFromAddress(window.location.search) : null,
  choose: (language) => {
    writeChoice(storage, language);
    set({ chosen: language, fromAddress: null });
  },
  systemChanged: (languages) => set({ system: resolveLanguage(languages) }),
}));

if (hasWindow) {
  window.addEventListener('languagechange', () =>
    useLanguage.getState().systemChanged([...window.navigator.languages]),
  );
}
