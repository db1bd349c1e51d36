import { describe, expect, it } from "vitest";
import { flattenTexts } from "./flatten-texts";
import { detectLanguage, parseLanguage } from "./index";
import adminEn from "./locales/admin/en.json";
import adminZh from "./locales/admin/zh.json";
import en from "./locales/en.json";
import zh from "./locales/zh.json";

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

/** The texts every page loads, and those the admin pages load with them. */
const FILES = {
  shell: { en: flattenTexts(en), zh: flattenTexts(zh) },
  admin: { en: flattenTexts(adminEn), zh: flattenTexts(adminZh) },
};

describe("locale files", () => {
  const enKeys = new Map([...FILES.shell.en, ...FILES.admin.en]);
  const zhKeys = new Map([...FILES.shell.zh, ...FILES.admin.zh]);

  it.each(Object.entries(FILES))("have the same keys in both languages (%s texts)", (_name, file) => {
    const missingInZh = [...file.en.keys()].filter((k) => !file.zh.has(k));
    const missingInEn = [...file.zh.keys()].filter((k) => !file.en.has(k));
    expect({ missingInZh, missingInEn }).toEqual({ missingInZh: [], missingInEn: [] });
  });

  it("keep each key in one file only", () => {
    const inBoth = [...FILES.admin.en.keys()].filter((k) => FILES.shell.en.has(k));
    expect(inBoth).toEqual([]);
  });

  it("have no empty texts", () => {
    const empty = [...enKeys, ...zhKeys].filter(([, v]) => v.trim() === "").map(([k]) => k);
    expect(empty).toEqual([]);
  });

  it("use the same interpolation variables in both languages", () => {
    const differing = [...enKeys.keys()]
      .filter((k) => zhKeys.has(k))
      .filter((k) => placeholders(enKeys.get(k)!).join() !== placeholders(zhKeys.get(k)!).join());
    expect(differing).toEqual([]);
  });

  it("give English texts that count things a singular and a plural form", () => {
    // "{{count}} files" read "1 files" before; `t` picks `_one` / `_other` by `count`.
    const countsNouns = /\{\{count\}\} \w+s\b|\{\{count\}\}.*\(s\)/;
    const unpluralised = [...enKeys]
      .filter(([k, v]) => countsNouns.test(v) && !/_(one|other)$/.test(k))
      .map(([k]) => k);
    expect(unpluralised).toEqual([]);
    const singular = [...enKeys].filter(([k]) => k.endsWith("_one")).map(([k]) => k);
    for (const key of singular) {
      expect(enKeys.has(key.replace(/_one$/, "_other")), key).toBe(true);
      expect(zhKeys.has(key.replace(/_one$/, "_other")), key).toBe(true);
    }
  });

  it("contain the error catalogue texts of the spec", () => {
    expect(enKeys.get("errors.adminSessionExpired")).toMatch(/admin session expired/i);
    expect(enKeys.get("errors.apiKeyInvalid")).toMatch(/API key invalid or expired/i);
    expect(zhKeys.get("errors.slugTaken")).toContain("链接后缀已被占用");
  });
});

describe("language detection", () => {
  it("prefers the stored choice", () => {
    expect(detectLanguage("zh", ["en-US"])).toBe("zh");
    expect(detectLanguage("en", ["zh-CN"])).toBe("en");
  });
  it("follows the browser on a first visit", () => {
    expect(detectLanguage(null, ["zh-TW", "en"])).toBe("zh");
    expect(detectLanguage(null, ["fr-FR", "en-GB"])).toBe("en");
    expect(detectLanguage(null, ["de"])).toBe("en");
  });
  it("ignores unknown stored values", () => {
    expect(detectLanguage("klingon", ["zh-CN"])).toBe("zh");
    expect(parseLanguage("ZH-hans")).toBe("zh");
  });
});

describe("English counts", () => {
  // A text that shows a number next to a counted word must have plural forms: "viewed 1 times" reads wrong.
  it("every text with a {{count}} before a counted word has its _one form", () => {
    const all = new Map([...FILES.shell.en, ...FILES.admin.en]);
    const counted = [...all.entries()].filter(([, text]) =>
      /\{\{\s*(views|count|n)\s*\}\}\s+times\b/.test(text),
    );
    const missing = counted.map(([key]) => key).filter((key) => !key.endsWith("_other"));
    expect(missing).toEqual([]);
    for (const [key] of counted) expect(all.has(key.replace(/_other$/, "_one")), key).toBe(true);
  });
});
