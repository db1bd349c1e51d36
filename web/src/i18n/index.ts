import { STORAGE_KEYS } from "@clipshare/shared";
import i18next from "i18next";
import { initReactI18next, useTranslation as useI18nextTranslation } from "react-i18next";
import { readString, writeString } from "../lib/storage";
import type adminEn from "./locales/admin/en.json";
import type en from "./locales/en.json";
import { createTexts, type TextPart } from "./texts";

export const LANGUAGES = ["zh", "en"] as const;
export type Language = (typeof LANGUAGES)[number];

/** BCP 47 tag for <html lang> and Accept-Language. */
export const LANGUAGE_TAGS: Record<Language, string> = { zh: "zh-CN", en: "en" };

export function parseLanguage(value: string | null | undefined): Language | null {
  if (!value) return null;
  const v = value.toLowerCase();
  if (v === "zh" || v.startsWith("zh-")) return "zh";
  if (v === "en" || v.startsWith("en-")) return "en";
  return null;
}

/** Stored choice first; on a first visit the browser's preferred languages; else English. */
export function detectLanguage(stored: string | null, preferred: readonly string[]): Language {
  const fromStore = parseLanguage(stored);
  if (fromStore) return fromStore;
  for (const tag of preferred) {
    const lang = parseLanguage(tag);
    if (lang) return lang;
  }
  return "en";
}

function applyDocumentLanguage(lang: Language): void {
  if (typeof document !== "undefined") document.documentElement.lang = LANGUAGE_TAGS[lang];
}

/**
 * The texts every page may show (header, footer, sign-in, Home, paste and file pages,
 * errors, offline). Each language is its own chunk; only the one in use is fetched.
 */
const shellTexts: TextPart<Language> = {
  en: () => import("./locales/en.json"),
  zh: () => import("./locales/zh.json"),
};

const texts = createTexts(i18next.use(initReactI18next), LANGUAGES, shellTexts);
i18next.on("languageChanged", (lang) => applyDocumentLanguage(parseLanguage(lang) ?? "en"));

export function currentLanguage(): Language {
  return parseLanguage(texts.language()) ?? "en";
}

/** Detects the language and loads its texts; the app renders after this. */
export async function initI18n(): Promise<void> {
  const preferred =
    typeof navigator === "undefined"
      ? []
      : navigator.languages?.length
        ? navigator.languages
        : [navigator.language];
  await texts.start(detectLanguage(readString(STORAGE_KEYS.language), preferred));
}

/** The visitor's choice: remembered, and applied once its texts are loaded. */
export async function setLanguage(lang: Language): Promise<void> {
  writeString(STORAGE_KEYS.language, lang);
  await texts.setLanguage(lang);
}

/**
 * Loads a part of the texts that only some pages use (see `admin-texts.ts`) before they
 * render; it follows every later language change.
 */
export const addTexts = (part: TextPart<Language>): Promise<void> => texts.addPart(part);

/** Every dotted key of a nested message object. */
type LeafKeys<T, P extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : LeafKeys<T[K], `${P}${K}.`>;
}[keyof T & string];

/** A key that exists in the locale files (checked by the compiler). */
export type TranslationKey = LeafKeys<typeof en> | LeafKeys<typeof adminEn>;

/** `files` for `files_one` / `files_other`: the key a counted text is asked for by. */
type PluralStem<K> = K extends `${infer S}_one` ? S : K extends `${infer S}_other` ? S : never;

/** A key, or the stem of a plural pair (called with a count). */
export type TextKey = TranslationKey | PluralStem<TranslationKey>;

/** Values a text is filled with (`{{name}}`); `count` also picks the plural form. */
export interface TextOptions {
  count?: number;
  /** Shown (and filled) when the key has no text. */
  defaultValue?: string;
  [name: string]: unknown;
}

export type TFunction = (key: TextKey, options?: TextOptions) => string;

/** The text of `key` in the language in use, for code outside components (toasts, notices). */
export const translate: TFunction = (key, options) => i18next.t(key, options);

/** `t` (keys checked by the compiler) and the language in use; the component renders again when either changes. */
export function useTranslation(): { t: TFunction; i18n: { language: Language } } {
  const { t, i18n } = useI18nextTranslation();
  return { t: t as TFunction, i18n: { language: parseLanguage(i18n.language) ?? "en" } };
}
