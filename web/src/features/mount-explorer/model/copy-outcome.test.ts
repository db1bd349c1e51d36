import { describe, expect, it } from "vitest";
import en from "../../../i18n/locales/admin/en.json";
import zh from "../../../i18n/locales/admin/zh.json";
import { copyOutcome, stoppedTaskNote } from "./copy-outcome";

describe("copy outcome texts", () => {
  it("nothing chosen or nothing copied reads 'no files to copy'", () => {
    expect(copyOutcome(0, null).key).toBe("explorer.noFilesToCopy");
    expect(copyOutcome(2, { success: 0, skipped: 0, failed: 0, queued: 0 }).key).toBe(
      "explorer.noFilesToCopy",
    );
    expect(en.explorer.noFilesToCopy).toBe("No files to copy.");
  });

  it("a copy that continues as a task names how many items it copies", () => {
    expect(copyOutcome(3, { success: 1, skipped: 0, failed: 0, queued: 2 })).toEqual({
      key: "explorer.copyQueued",
      tone: "info",
      params: { count: 3 },
    });
    expect(en.explorer.copyQueued_other.replace("{{count}}", "3")).toBe(
      "Copying 3 items continues as a background task",
    );
    expect(en.explorer.copyQueued_one).toContain("{{count}} item ");
    expect(zh.explorer.copyQueued_other).toContain("{{count}}");
  });

  it("a finished copy names its counts, and is an error when any failed", () => {
    expect(copyOutcome(2, { success: 1, skipped: 0, failed: 1, queued: 0 })).toMatchObject({
      key: "explorer.copyDone",
      tone: "error",
      params: { success: 1, skipped: 0, failed: 1 },
    });
  });

  it("a stopped copy task reads 'operation cancelled'", () => {
    expect(stoppedTaskNote({ type: "copy", status: "cancelled" })).toBe("explorer.operationCancelled");
    expect(stoppedTaskNote({ type: "copy", status: "completed" })).toBeNull();
    expect(stoppedTaskNote({ type: "upload", status: "cancelled" })).toBeNull();
    expect(en.explorer.operationCancelled).toBe("Operation cancelled.");
    expect(zh.explorer.operationCancelled).toBe("操作已取消。");
  });
});
