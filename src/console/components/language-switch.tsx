/** The language choice of the signed-out pages (the signed-in header has its own). */
import { LOCALES, locale, setLocale, type Locale } from '../i18n.js';

const NAMES: Record<Locale, string> = { en: 'English', ja: '日本語' };

export function LanguageSwitch() {
  return (
    <nav class="language-switch" aria-label="Language / 言語">
      {LOCALES.map((code) => (
        <button
          key={code}
          type="button"
          lang={code}
          class="link-button"
          aria-pressed={locale() === code ? 'true' : 'false'}
          onClick={() => setLocale(code)}
        >
          {NAMES[code]}
        </button>
      ))}
    </nav>
  );
}
