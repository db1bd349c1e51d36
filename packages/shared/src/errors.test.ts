import { describe, expect, it } from "vitest";
import { ERROR_CATALOGUE, ERROR_CODES, errorMessage, isErrorCode, preferredLanguage } from "./errors";

const HAN = /[\u4e00-\u9fff]/;

describe("error catalogue", () => {
  it("gives every code an error status, an English text and a Chinese text", () => {
    expect(ERROR_CODES.length).toBeGreaterThan(70);
    for (const code of ERROR_CODES) {
      const text = ERROR_CATALOGUE[code];
      expect(code, code).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(text.status, code).toBeGreaterThanOrEqual(400);
      expect(text.status, code).toBeLessThan(600);
      expect(text.en.trim(), code).not.toBe("");
      expect(text.en, code).not.toMatch(HAN);
      expect(text.zh, code).toMatch(HAN);
    }
  });

  it("keeps the phrases 0.7.3 clients look for in Chinese messages", () => {
    expect(ERROR_CATALOGUE.wrong_password.zh).toContain("密码错误");
    expect(ERROR_CATALOGUE.slug_taken.zh).toContain("链接后缀已被占用");
    expect(ERROR_CATALOGUE.insufficient_storage.zh).toContain("存储空间不足");
    for (const code of ["not_found", "paste_not_found", "file_not_found", "mount_not_found"] as const)
      expect(ERROR_CATALOGUE[code].zh).toContain("不存在");
    expect(ERROR_CATALOGUE.file_expired.zh).toContain("已过期");
  });
});

describe("errorMessage", () => {
  it("keeps the thrower's English sentence and gives Chinese the catalogue text", () => {
    expect(errorMessage("en", "wrong_password", "Incorrect password")).toBe("Incorrect password");
    expect(errorMessage("zh", "wrong_password", "Incorrect password")).toBe("密码错误");
    // Codes whose sentence names what was wrong keep it after the Chinese text.
    expect(errorMessage("zh", "validation_failed", "max_views: too big")).toBe(
      "输入无效: max_views: too big",
    );
    expect(errorMessage("zh", "not_an_error_code", "Kept")).toBe("Kept");
    expect(isErrorCode("slug_taken")).toBe(true);
    expect(isErrorCode("toString")).toBe(false);
  });

  it("follows Accept-Language: highest q of English and Chinese, English by default", () => {
    expect(preferredLanguage(undefined)).toBe("en");
    expect(preferredLanguage("fr-FR")).toBe("en");
    expect(preferredLanguage("zh-CN,zh;q=0.9,en;q=0.8")).toBe("zh");
    expect(preferredLanguage("en-US,en;q=0.9,zh;q=0.5")).toBe("en");
    expect(preferredLanguage("en;q=0.4,zh-TW;q=0.6")).toBe("zh");
  });
});
