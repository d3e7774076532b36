/**
 * Japanese and English (docs/console.md, Languages): the language is the visitor's choice saved in
 * this browser, else the first of the browser's languages the console speaks, else English. Each
 * area of the console defines its texts next to its views with `defineTexts`; the Japanese texts
 * must have every key of the English ones (the compiler checks it).
 */
export type Locale = 'en' | 'ja';
export const LOCALES: readonly Locale[] = ['en', 'ja'];
const STORAGE_KEY = 'kumo-console-language';

type Text = string | ((...args: never[]) => string);

function detect(): Locale {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved === 'en' || saved === 'ja') return saved;
  } catch {
    // Storage refused (private mode): fall back to the browser's languages.
  }
  for (const language of navigator.languages ?? [navigator.language]) {
    const primary = language.toLowerCase().split('-')[0];
    if (primary === 'ja' || primary === 'en') return primary;
  }
  return 'en';
}

let current: Locale = detect();
const listeners = new Set<() => void>();

export function locale(): Locale {
  return current;
}

/** Switches the language, remembers it in this browser and re-renders the console. */
export function setLocale(next: Locale): void {
  current = next;
  document.documentElement.lang = next;
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // Not remembered; this page still switches.
  }
  for (const listener of listeners) listener();
}

export function onLocaleChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Declares an area's texts; call the answer in a view to get the current language's. */
export function defineTexts<T extends Record<string, Text>>(texts: { en: T; ja: NoInfer<T> }): () => T {
  return () => texts[current];
}
