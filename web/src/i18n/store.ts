import { flattenTexts, formatText, type TextOptions, type TextTree } from "./format";

/** One part of the texts (the app shell's, or the admin pages'): a loader per language. */
export type TextPart<L extends string> = Record<L, () => Promise<{ default: TextTree }>>;

/** What a component reads: the lookup for the language in use, and that language. */
export interface Translation<L extends string> {
  t: (key: string, options?: TextOptions) => string;
  i18n: { language: L };
}

/**
 * The texts in use and the language they are in, as an external store for
 * `useSyncExternalStore`: every change (a language applied, a part added) makes a new
 * snapshot and tells the subscribers, so each component using texts renders again.
 *
 * A language is applied only once every registered part is loaded in it, so no screen
 * ever shows a raw key while a file is on its way; when several changes overlap, the
 * last one asked for wins.
 */
export function createTextStore<L extends string>(
  tags: Record<L, string>,
  shell: TextPart<L>,
  initial: L,
  onApply: (language: L) => void = () => undefined,
) {
  const parts: TextPart<L>[] = [shell];
  const texts = new Map<L, Map<string, string>>();
  const loads = new Map<TextPart<L>, Map<L, Promise<void>>>();
  const listeners = new Set<() => void>();
  let language = initial;
  let wanted = initial;

  const textsOf = (lang: L) => {
    const found = texts.get(lang) ?? new Map<string, string>();
    texts.set(lang, found);
    return found;
  };

  /** Loads `part` in `lang` once; a failed load (offline) is tried again next time. */
  const load = (part: TextPart<L>, lang: L): Promise<void> => {
    const byLanguage = loads.get(part) ?? new Map<L, Promise<void>>();
    loads.set(part, byLanguage);
    let pending = byLanguage.get(lang);
    if (!pending) {
      pending = part[lang]().then(
        (file) => flattenTexts(file.default, textsOf(lang)),
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

  const snapshotOf = (lang: L): Translation<L> => {
    const plurals = new Intl.PluralRules(tags[lang]);
    const lookup = textsOf(lang);
    return { t: (key, options) => formatText(lookup, plurals, key, options), i18n: { language: lang } };
  };
  let snapshot = snapshotOf(initial);

  const publish = () => {
    snapshot = snapshotOf(language);
    for (const listener of listeners) listener();
  };

  return {
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    snapshot: (): Translation<L> => snapshot,
    language: (): L => language,

    /** Loads every part in `lang`, then switches to it (unless another language was asked for meanwhile). */
    async setLanguage(lang: L): Promise<void> {
      wanted = lang;
      try {
        await loadAll(lang);
      } catch (error) {
        if (wanted === lang) wanted = language;
        throw error;
      }
      if (wanted !== lang) return;
      language = lang;
      onApply(lang);
      publish();
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
        current = language;
        next = wanted;
        await Promise.all([load(part, current), load(part, next)]);
      } while (current !== language || next !== wanted);
      if (parts.includes(part)) return;
      parts.push(part);
      publish();
    },
  };
}
