import { STORAGE_KEYS } from "@clipshare/shared";
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { readString, writeString } from "../lib/storage";
import type en from "./locales/en.json";

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

/** Each language is its own chunk; only the one in use is fetched. */
const loaders: Record<Language, () => Promise<{ default: typeof en }>> = {
  en: () => import("./locales/en.json"),
  zh: () => import("./locales/zh.json"),
};

async function ensureLoaded(lang: Language): Promise<void> {
  if (i18next.hasResourceBundle(lang, "translation")) return;
  const messages = await loaders[lang]();
  i18next.addResourceBundle(lang, "translation", messages.default, true, true);
}

export async function initI18n(): Promise<typeof i18next> {
  const preferred =
    typeof navigator === "undefined"
      ? []
      : navigator.languages?.length
        ? navigator.languages
        : [navigator.language];
  const lng = detectLanguage(readString(STORAGE_KEYS.language), preferred);
  applyDocumentLanguage(lng);
  const messages = await loaders[lng]();
  await i18next.use(initReactI18next).init({
    resources: { [lng]: { translation: messages.default } },
    lng,
    // Both locale files have the same keys (checked by a unit test), so no fallback is needed.
    fallbackLng: false,
    supportedLngs: LANGUAGES,
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  return i18next;
}

export function currentLanguage(): Language {
  return parseLanguage(i18next.language) ?? "en";
}

export async function setLanguage(lang: Language): Promise<void> {
  await ensureLoaded(lang);
  writeString(STORAGE_KEYS.language, lang);
  applyDocumentLanguage(lang);
  await i18next.changeLanguage(lang);
}

/** Every dotted key of a nested message object. */
type LeafKeys<T, P extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : LeafKeys<T[K], `${P}${K}.`>;
}[keyof T & string];

/** A key that exists in the locale files (checked by the compiler). */
export type TranslationKey = LeafKeys<typeof en>;
