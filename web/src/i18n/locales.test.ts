import { describe, expect, it } from "vitest";
import { detectLanguage, parseLanguage } from "./index";
import en from "./locales/en.json";
import zh from "./locales/zh.json";

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe("locale files", () => {
  const enKeys = flatten(en as Tree);
  const zhKeys = flatten(zh as Tree);

  it("have the same keys", () => {
    const missingInZh = [...enKeys.keys()].filter((k) => !zhKeys.has(k));
    const missingInEn = [...zhKeys.keys()].filter((k) => !enKeys.has(k));
    expect({ missingInZh, missingInEn }).toEqual({ missingInZh: [], missingInEn: [] });
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
    // "{{count}} files" read "1 files" before; i18next picks `_one` / `_other` by `count`.
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
