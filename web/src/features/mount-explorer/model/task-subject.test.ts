import { describe, expect, it } from "vitest";
import { taskSubject } from "./task-subject";

describe("taskSubject", () => {
  it("a copy names its first file, how many more, and the folder they go to", () => {
    const payload = {
      items: [
        { sourcePath: "/docs/report.pdf", targetPath: "/backup/2026/report.pdf" },
        { sourcePath: "/docs/notes.txt", targetPath: "/backup/2026/notes.txt" },
      ],
      skipExisting: false,
    };
    expect(taskSubject({ type: "copy", payload })).toEqual({
      first: "report.pdf",
      more: 1,
      target: "/backup/2026",
    });
    expect(
      taskSubject({ type: "copy", payload: { items: [{ sourcePath: "/a/x", targetPath: "/b/" }] } }),
    ).toEqual({ first: "x", more: 0, target: "/b" });
  });

  it("a delete names its first path; a URL fetch its file and folder", () => {
    expect(taskSubject({ type: "delete", payload: { paths: ["/m/a.txt", "/m/b", "/m/c"] } })).toEqual({
      first: "a.txt",
      more: 2,
      target: null,
    });
    expect(
      taskSubject({
        type: "download",
        payload: { url: "https://example.org/f.iso", filename: "f.iso", target_path: "/m/isos" },
      }),
    ).toEqual({ first: "f.iso", more: 0, target: "/m/isos" });
  });

  it("a payload it does not know gives nothing to show", () => {
    expect(taskSubject({ type: "copy", payload: null })).toEqual({ first: null, more: 0, target: null });
    expect(taskSubject({ type: "delete", payload: { paths: "x" } })).toEqual({
      first: null,
      more: 0,
      target: null,
    });
  });
});
