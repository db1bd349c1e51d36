import { describe, expect, it } from "vitest";
import { flattenTexts, formatText, type TextTree } from "./format";
import en from "./locales/en.json";
import zh from "./locales/zh.json";

const textsOf = (tree: TextTree) => {
  const texts = new Map<string, string>();
  flattenTexts(tree, texts);
  return texts;
};
const enTexts = textsOf(en);
const zhTexts = textsOf(zh);
const enRules = new Intl.PluralRules("en");
const zhRules = new Intl.PluralRules("zh-CN");
const tEn = (key: string, options?: Parameters<typeof formatText>[3]) =>
  formatText(enTexts, enRules, key, options);
const tZh = (key: string, options?: Parameters<typeof formatText>[3]) =>
  formatText(zhTexts, zhRules, key, options);

describe("formatText", () => {
  it("finds nested texts by their dotted key", () => {
    expect(tEn("offline.title")).toBe(en.offline.title);
    expect(tZh("offline.title")).toBe(zh.offline.title);
  });

  it("fills {{name}} placeholders, with or without spaces inside the braces", () => {
    expect(tEn("pastes.remainingViews", { count: 3, max: 10 })).toBe("3 of 10 views left");
    const texts = textsOf({ greeting: "Hello {{ name }}, you have {{count}} new" });
    expect(formatText(texts, enRules, "greeting", { name: "Ada", count: 0 })).toBe(
      "Hello Ada, you have 0 new",
    );
  });

  it("inserts values as they are, without HTML escaping", () => {
    const texts = textsOf({ saved: "Saved {{name}}" });
    expect(formatText(texts, enRules, "saved", { name: `<b>"a & b"</b>` })).toBe(`Saved <b>"a & b"</b>`);
  });

  it("fills a value once: a placeholder inside a value stays as typed", () => {
    const texts = textsOf({ saved: "Saved {{name}} ({{size}})" });
    expect(formatText(texts, enRules, "saved", { name: "{{size}}", size: "3 KB" })).toBe(
      "Saved {{size}} (3 KB)",
    );
  });

  it("leaves a placeholder without a value visible, and an undefined or null value empty", () => {
    const texts = textsOf({ saved: "Saved {{name}} at {{time}}" });
    expect(formatText(texts, enRules, "saved", { name: "a.txt" })).toBe("Saved a.txt at {{time}}");
    expect(formatText(texts, enRules, "saved", { name: null, time: undefined })).toBe("Saved  at ");
    expect(formatText(texts, enRules, "saved", { name: "x", time: "y", toString: 1 })).toBe("Saved x at y");
    expect(formatText(textsOf({ odd: "{{toString}}" }), enRules, "odd", {})).toBe("{{toString}}");
  });

  it("picks the English singular for one and the plural otherwise", () => {
    expect(tEn("offlineApp.queue.waiting", { count: 1 })).toBe("1 change waiting to be sent");
    expect(tEn("offlineApp.queue.waiting", { count: 2 })).toBe("2 changes waiting to be sent");
    expect(tEn("offlineApp.queue.waiting", { count: 0 })).toBe("0 changes waiting to be sent");
  });

  it("gives Chinese the one form it has, for every count", () => {
    expect(tZh("offlineApp.queue.waiting", { count: 1 })).toBe("1 项更改等待发送");
    expect(tZh("offlineApp.queue.waiting", { count: 5 })).toBe("5 项更改等待发送");
    const texts = textsOf({ files_one: "one form", files_other: "{{count}} other form" });
    expect(formatText(texts, zhRules, "files", { count: 1 })).toBe("1 other form");
  });

  it("falls back to the plain key when a counted text has no plural forms", () => {
    const texts = textsOf({ items: "{{count}} item(s)" });
    expect(formatText(texts, enRules, "items", { count: 1 })).toBe("1 item(s)");
  });

  it("answers a missing key with its default value, else with the key itself", () => {
    expect(tEn("apiKeys.roles.SUPERUSER", { defaultValue: "SUPERUSER" })).toBe("SUPERUSER");
    expect(tEn("nowhere.to.be.found")).toBe("nowhere.to.be.found");
    expect(tEn("nowhere", { defaultValue: "{{n}} left", n: 2 })).toBe("2 left");
    expect(tEn("offline.title", { defaultValue: "unused" })).toBe(en.offline.title);
  });

  it("keeps an empty text empty", () => {
    expect(formatText(textsOf({ blank: "" }), enRules, "blank")).toBe("");
  });

  it("does not mistake a section for a text", () => {
    expect(tEn("offline")).toBe("offline");
  });
});
