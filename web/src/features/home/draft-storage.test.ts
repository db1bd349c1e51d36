import { describe, expect, it } from "vitest";
import {
  clearDraft,
  DRAFT_MAX_CHARS,
  DRAFT_STORAGE_KEY,
  type DraftStore,
  loadDraft,
  saveDraft,
} from "./draft-storage";
import { fileExtension, formatForFileName, looksBinary } from "./import-file";

function memoryStore(): DraftStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

describe("draft storage", () => {
  it("saves and restores a draft", () => {
    const store = memoryStore();
    expect(saveDraft({ content: "# hi", format: "markdown", remark: "r" }, 1000, store)).toBe("saved");
    expect(loadDraft(store)).toEqual({ content: "# hi", format: "markdown", remark: "r", savedAt: 1000 });
  });

  it("removes the draft when the text is emptied", () => {
    const store = memoryStore();
    saveDraft({ content: "x", format: "plain", remark: "" }, 1, store);
    expect(saveDraft({ content: "", format: "plain", remark: "kept?" }, 2, store)).toBe("cleared");
    expect(store.data.has(DRAFT_STORAGE_KEY)).toBe(false);
    expect(loadDraft(store)).toBeNull();
  });

  it("does not keep oversized drafts, and drops the older one", () => {
    const store = memoryStore();
    saveDraft({ content: "old", format: "plain", remark: "" }, 1, store);
    expect(
      saveDraft({ content: "x".repeat(DRAFT_MAX_CHARS + 1), format: "plain", remark: "" }, 2, store),
    ).toBe("tooLarge");
    expect(loadDraft(store)).toBeNull();
  });

  it("survives a full or blocked storage", () => {
    const full: DraftStore = {
      getItem: () => {
        throw new Error("blocked");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
      removeItem: () => {},
    };
    expect(saveDraft({ content: "x", format: "plain", remark: "" }, 1, full)).toBe("failed");
    expect(loadDraft(full)).toBeNull();
    expect(saveDraft({ content: "x", format: "plain", remark: "" }, 1, null)).toBe("failed");
    expect(() => clearDraft(full)).not.toThrow();
  });

  it("ignores malformed stored values", () => {
    const store = memoryStore();
    for (const raw of ["not json", "null", "{}", '{"content":""}', '{"content":5}']) {
      store.data.set(DRAFT_STORAGE_KEY, raw);
      expect(loadDraft(store), raw).toBeNull();
    }
    store.data.set(DRAFT_STORAGE_KEY, '{"content":"a","format":"weird"}');
    expect(loadDraft(store)).toEqual({ content: "a", format: "plain", remark: "", savedAt: 0 });
  });
});

describe("file import", () => {
  it("treats the Markdown extensions as Markdown", () => {
    expect(formatForFileName("README.md")).toBe("markdown");
    expect(formatForFileName("notes.MARKDOWN")).toBe("markdown");
    expect(formatForFileName("a.rmd")).toBe("markdown");
    expect(formatForFileName("log.txt")).toBe("plain");
    expect(formatForFileName("md")).toBe("plain");
    expect(fileExtension(".bashrc")).toBe("");
  });

  it("recognises binary files", () => {
    expect(looksBinary("hello\nworld")).toBe(false);
    expect(looksBinary("PK\u0003\u0004\u0000\u0000")).toBe(true);
    expect(looksBinary("\uFFFD".repeat(50) + "a".repeat(50))).toBe(true);
    expect(looksBinary("")).toBe(false);
  });
});
