import type { i18n as I18n } from "i18next";

/** A locale file: nested sections whose leaves are texts. */
export type TextTree = { [key: string]: string | TextTree };

/** One part of the texts (the app shell's, or the admin pages'): a loader per language. */
export type TextPart<L extends string> = Record<L, () => Promise<{ default: TextTree }>>;

/**
 * Loads the texts into an i18next instance part by part and switches its language.
 * A language is applied only once every part in use is loaded in it, so no screen ever
 * shows a raw key while a file is on its way; when changes overlap, the last one asked
 * for wins; a failed load (offline) changes nothing and is tried again next time.
 */
export function createTexts<L extends string>(i18n: I18n, languages: readonly L[], shell: TextPart<L>) {
  const parts: TextPart<L>[] = [shell];
  const loads = new Map<TextPart<L>, Map<L, Promise<void>>>();
  let wanted: L | null = null;

  const language = (): L => i18n.language as L;

  const load = (part: TextPart<L>, lang: L): Promise<void> => {
    const byLanguage = loads.get(part) ?? new Map<L, Promise<void>>();
    loads.set(part, byLanguage);
    let pending = byLanguage.get(lang);
    if (!pending) {
      pending = part[lang]().then(
        (file) => {
          i18n.addResourceBundle(lang, "translation", file.default, true, true);
        },
        (error: unknown) => {
          byLanguage.delete(lang);
          throw error;
        },
      );
      byLanguage.set(lang, pending);
    }
    return pending;
  };

  /** Every part in `lang`, including parts registered while these load. */
  const loadAll = async (lang: L) => {
    let count: number;
    do {
      count = parts.length;
      await Promise.all(parts.map((part) => load(part, lang)));
    } while (count !== parts.length);
  };

  const texts = {
    language,

    /** Sets the instance up in `lang` and loads its texts (the app renders after this). */
    async start(lang: L): Promise<void> {
      wanted = lang;
      await i18n.init({
        lng: lang,
        resources: {},
        // Texts arrive in parts (the shell's, later the admin pages'), added as they load.
        partialBundledLanguages: true,
        // Both languages have the same keys (checked by a unit test): no fallback is needed.
        fallbackLng: false,
        supportedLngs: languages,
        // React escapes what it renders; texts are never inserted as HTML.
        interpolation: { escapeValue: false },
        returnNull: false,
        initAsync: false,
        // Components render again when a part of the texts is added, not only on a language change.
        react: { bindI18nStore: "added", useSuspense: false },
      });
      await load(shell, lang);
    },

    /** Loads every part in `lang`, then switches to it (unless another language was asked for meanwhile). */
    async setLanguage(lang: L): Promise<void> {
      wanted = lang;
      try {
        await loadAll(lang);
      } catch (error) {
        if (wanted === lang) wanted = language();
        throw error;
      }
      if (wanted !== lang) return;
      await i18n.changeLanguage(lang);
    },

    /**
     * Adds a part once it is loaded in the language in use and in one being switched to;
     * from then on every language change loads it too. A part that fails to load is not
     * added, so it cannot block later language changes.
     */
    async addPart(part: TextPart<L>): Promise<void> {
      let current: L;
      let next: L;
      do {
        current = language();
        next = wanted ?? current;
        await Promise.all([load(part, current), load(part, next)]);
      } while (current !== language() || next !== (wanted ?? language()));
      if (!parts.includes(part)) parts.push(part);
    },
  };
  return texts;
}
