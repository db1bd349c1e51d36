import { ALL_PERMISSIONS, Permission } from "@clipshare/shared";
import { describe, expect, it } from "vitest";
import {
  addToBasket,
  BASKET_WARN_BYTES,
  BASKET_WARN_FILES,
  basketTotals,
  basketZipName,
  removeFromBasket,
} from "./basket";
import { clampMenuWidth, isLongPress, movedTooFar, placeMenu } from "./gesture";
import { entryShortcut, nextEntryIndex } from "./grid-keys";
import {
  baseName,
  breadcrumbs,
  explorerHref,
  fileKind,
  isEditable,
  isWithin,
  joinPath,
  normalizePath,
  parentPath,
  validName,
} from "./paths";
import { explorerPermissions } from "./permissions";
import { clickSelect, contextSelect, EMPTY_SELECTION, pruneSelection, selectAll } from "./selection";
import { nextSort, sortEntries } from "./sort";

describe("paths", () => {
  it("normalizes, joins and splits", () => {
    expect(normalizePath("")).toBe("/");
    expect(normalizePath("/a//b/")).toBe("/a/b");
    expect(joinPath("/a/", "b.txt")).toBe("/a/b.txt");
    expect(joinPath("/", "x")).toBe("/x");
    expect(parentPath("/a/b/c/")).toBe("/a/b");
    expect(parentPath("/a")).toBe("/");
    expect(baseName("/a/b/c.txt")).toBe("c.txt");
    expect(baseName("/")).toBe("");
  });

  it("builds breadcrumbs from the root", () => {
    expect(breadcrumbs("/")).toEqual([{ name: "", path: "/" }]);
    expect(breadcrumbs("/local/docs/")).toEqual([
      { name: "", path: "/" },
      { name: "local", path: "/local" },
      { name: "docs", path: "/local/docs" },
    ]);
  });

  it("encodes explorer URLs per segment", () => {
    expect(explorerHref("/")).toBe("/mount-explorer");
    expect(explorerHref("/资料/a b/#1")).toBe("/mount-explorer/%E8%B5%84%E6%96%99/a%20b/%231");
  });

  it("checks base paths by whole segments", () => {
    expect(isWithin("/a", "/a/b")).toBe(true);
    expect(isWithin("/a", "/a")).toBe(true);
    expect(isWithin("/a", "/ab")).toBe(false);
    expect(isWithin("/", "/anything")).toBe(true);
  });

  it("accepts single path segments as names", () => {
    expect(validName("notes.txt")).toBe(true);
    expect(validName("  ")).toBe(false);
    expect(validName("a/b")).toBe(false);
    expect(validName("..")).toBe(false);
    expect(validName("x".repeat(256))).toBe(false);
  });

  it("classifies files for preview", () => {
    expect(fileKind("a.PNG")).toBe("image");
    expect(fileKind("clip.webm")).toBe("video");
    expect(fileKind("song.mp3")).toBe("audio");
    expect(fileKind("doc.pdf")).toBe("pdf");
    expect(fileKind("README.md")).toBe("markdown");
    expect(fileKind("main.ts")).toBe("text");
    expect(fileKind("sheet.xlsx")).toBe("office");
    expect(fileKind("blob", "image/jpeg")).toBe("image");
    expect(fileKind("blob")).toBe("other");
    expect(isEditable("a.txt", 10)).toBe(true);
    expect(isEditable("a.txt", 11 * 1024 * 1024)).toBe(false);
    expect(isEditable("a.png", 10)).toBe(false);
  });
});

describe("sort", () => {
  const entries = [
    { name: "b10.txt", isDirectory: false, size: 5, modified: "2024-01-03T00:00:00Z" },
    { name: "B2.txt", isDirectory: false, size: 50, modified: "2024-01-01T00:00:00Z" },
    { name: "zdir", isDirectory: true, size: 0, modified: null },
    { name: "adir", isDirectory: true, size: 0, modified: null },
  ];
  it("keeps directories first and sorts names naturally", () => {
    expect(sortEntries(entries, "name", "asc").map((e) => e.name)).toEqual([
      "adir",
      "zdir",
      "B2.txt",
      "b10.txt",
    ]);
    expect(sortEntries(entries, "name", "desc").map((e) => e.name)).toEqual([
      "zdir",
      "adir",
      "b10.txt",
      "B2.txt",
    ]);
  });
  it("sorts by size and date", () => {
    expect(
      sortEntries(entries, "size", "desc")
        .map((e) => e.name)
        .slice(2),
    ).toEqual(["B2.txt", "b10.txt"]);
    expect(
      sortEntries(entries, "modified", "asc")
        .map((e) => e.name)
        .slice(2),
    ).toEqual(["B2.txt", "b10.txt"]);
  });
  it("flips the active column", () => {
    expect(nextSort({ key: "name", dir: "asc" }, "name")).toEqual({ key: "name", dir: "desc" });
    expect(nextSort({ key: "name", dir: "desc" }, "size")).toEqual({ key: "size", dir: "asc" });
  });
});

describe("selection", () => {
  const order = ["a", "b", "c", "d", "e"];
  it("selects one on a plain click, toggles with ctrl, ranges with shift", () => {
    let s = clickSelect(EMPTY_SELECTION, order, "b");
    expect([...s.selected]).toEqual(["b"]);
    s = clickSelect(s, order, "d", { shift: true });
    expect([...s.selected].sort()).toEqual(["b", "c", "d"]);
    s = clickSelect(s, order, "c", { toggle: true });
    expect([...s.selected].sort()).toEqual(["b", "d"]);
    expect(s.anchor).toBe("c");
    s = clickSelect(s, order, "a", { shift: true });
    expect([...s.selected].sort()).toEqual(["a", "b", "c"]);
    s = clickSelect(s, order, "e", { shift: true, toggle: true });
    expect([...s.selected].sort()).toEqual(["a", "b", "c", "d", "e"]);
  });
  it("selects all, prunes missing entries and keeps a selection on right click", () => {
    const all = selectAll(order);
    expect(all.selected.size).toBe(5);
    const pruned = pruneSelection(all, ["a", "c"]);
    expect([...pruned.selected]).toEqual(["a", "c"]);
    expect(contextSelect(pruned, "c")).toBe(pruned);
    expect([...contextSelect(pruned, "e").selected]).toEqual(["e"]);
  });
});

describe("long press and menu geometry", () => {
  it("tolerates 10 px of movement and fires at 500 ms", () => {
    expect(movedTooFar({ x: 0, y: 0 }, { x: 6, y: 8 })).toBe(false);
    expect(movedTooFar({ x: 0, y: 0 }, { x: 8, y: 8 })).toBe(true);
    expect(isLongPress(1000, 1499)).toBe(false);
    expect(isLongPress(1000, 1500)).toBe(true);
  });
  it("clamps the menu to 100-600 px and keeps it in the viewport", () => {
    expect(clampMenuWidth(50)).toBe(100);
    expect(clampMenuWidth(900)).toBe(600);
    expect(clampMenuWidth(Number.NaN)).toBe(100);
    expect(placeMenu({ x: 10, y: 10 }, { width: 200, height: 100 }, { width: 1000, height: 800 })).toEqual({
      left: 10,
      top: 10,
      width: 200,
    });
    const flipped = placeMenu({ x: 950, y: 780 }, { width: 200, height: 100 }, { width: 1000, height: 800 });
    expect(flipped).toEqual({ left: 750, top: 680, width: 200 });
    const narrow = placeMenu({ x: 380, y: 10 }, { width: 600, height: 100 }, { width: 390, height: 800 });
    expect(narrow.width).toBe(374);
    expect(narrow.left).toBe(8);
  });
});

describe("basket", () => {
  it("adds without duplicates, removes and totals", () => {
    let items = addToBasket(
      [],
      [
        { path: "/a/1", name: "1", size: 10 },
        { path: "/a/2", name: "2", size: 5 },
      ],
    );
    items = addToBasket(items, [
      { path: "/a/1", name: "1", size: 10 },
      { path: "/b/3", name: "3", size: 1 },
    ]);
    expect(basketTotals(items)).toEqual({ count: 3, bytes: 16, warn: false });
    items = removeFromBasket(items, ["/a/2"]);
    expect(items.map((i) => i.path)).toEqual(["/a/1", "/b/3"]);
  });
  it("warns above the documented thresholds", () => {
    expect(basketTotals([{ path: "/x", name: "x", size: BASKET_WARN_BYTES + 1 }]).warn).toBe(true);
    const many = Array.from({ length: BASKET_WARN_FILES + 1 }, (_, i) => ({
      path: `/f${i}`,
      name: `f${i}`,
      size: 1,
    }));
    expect(basketTotals(many).warn).toBe(true);
    expect(basketZipName(new Date(2025, 0, 2, 3, 4))).toBe("basket-20250102-0304.zip");
  });
});

describe("folder drops", () => {
  it("walks directories through webkitGetAsEntry, reading entries until none are left", async () => {
    const { collectDrop } = await import("./upload-walk");
    const file = (name: string) => ({
      isFile: true,
      isDirectory: false,
      name,
      file: (ok: (f: File) => void) => ok({ name } as File),
    });
    const dir = (name: string, children: unknown[][]) => {
      let call = 0;
      return {
        isFile: false,
        isDirectory: true,
        name,
        createReader: () => ({
          readEntries: (ok: (e: never[]) => void) => ok((children[call++] ?? []) as never[]),
        }),
      };
    };
    const tree = dir("photos", [[file("a.jpg"), dir("2024", [[file("b.jpg")]])], [file("c.jpg")]]);
    const items = [
      { kind: "file", getAsFile: () => null, webkitGetAsEntry: () => tree },
      { kind: "string", getAsFile: () => null },
      { kind: "file", getAsFile: () => ({ name: "loose.txt" }) as File },
    ];
    const result = await collectDrop(items, null);
    expect(result.dirs).toEqual(["photos", "photos/2024"]);
    expect(result.files.map((f) => f.relativePath)).toEqual([
      "photos/a.jpg",
      "photos/2024/b.jpg",
      "photos/c.jpg",
      "loose.txt",
    ]);
  });
});

describe("picked folders", () => {
  it("keeps each file's path inside the folder and lists the folders parents first", async () => {
    const { collectPickedFolder } = await import("./upload-walk");
    const picked = [
      { name: "b.jpg", webkitRelativePath: "photos/2024/may/b.jpg" },
      { name: "a.jpg", webkitRelativePath: "photos/a.jpg" },
      { name: "loose.txt", webkitRelativePath: "" },
    ] as (File & { webkitRelativePath: string })[];
    const result = collectPickedFolder(picked);
    expect(result.files.map((f) => f.relativePath)).toEqual([
      "photos/2024/may/b.jpg",
      "photos/a.jpg",
      "loose.txt",
    ]);
    expect(result.dirs).toEqual(["photos", "photos/2024", "photos/2024/may"]);
  });
});

describe("grid keys", () => {
  it("moves one step in the list, a tile sideways or a line of tiles in the grid view", () => {
    expect(nextEntryIndex("ArrowDown", 0, 5, "list", 1)).toBe(1);
    expect(nextEntryIndex("ArrowUp", 0, 5, "list", 1)).toBeNull();
    expect(nextEntryIndex("ArrowDown", 1, 10, "grid", 4)).toBe(5);
    expect(nextEntryIndex("ArrowDown", 7, 10, "grid", 4)).toBeNull();
    expect(nextEntryIndex("ArrowLeft", 4, 10, "grid", 4)).toBe(3);
    expect(nextEntryIndex("End", 2, 10, "gallery", 3)).toBe(9);
    expect(nextEntryIndex("Home", 0, 10, "list", 1)).toBeNull();
    expect(nextEntryIndex("a", 0, 10, "list", 1)).toBeNull();
  });

  it("names the shortcuts that run menu items", () => {
    expect(entryShortcut({ key: "Delete", shiftKey: false })).toBe("delete");
    expect(entryShortcut({ key: "F2", shiftKey: false })).toBe("rename");
    expect(entryShortcut({ key: "F10", shiftKey: true })).toBe("menu");
    expect(entryShortcut({ key: "F10", shiftKey: false })).toBeNull();
  });
});

describe("explorer permissions", () => {
  it("offers each change only with its bit; move goes with rename", () => {
    expect(explorerPermissions(Permission.MOUNT_VIEW)).toEqual({
      upload: false,
      copy: false,
      rename: false,
      delete: false,
      share: false,
      tasks: true,
    });
    expect(
      explorerPermissions(Permission.MOUNT_VIEW | Permission.MOUNT_UPLOAD | Permission.MOUNT_RENAME),
    ).toEqual({
      upload: true,
      copy: false,
      rename: true,
      delete: false,
      share: false,
      tasks: true,
    });
    expect(explorerPermissions(ALL_PERMISSIONS)).toEqual({
      upload: true,
      copy: true,
      rename: true,
      delete: true,
      share: true,
      tasks: true,
    });
  });

  it("a visitor without credentials changes nothing and has no tasks", () => {
    expect(explorerPermissions(0)).toEqual({
      upload: false,
      copy: false,
      rename: false,
      delete: false,
      share: false,
      tasks: false,
    });
  });

  it("offers Share only with the file-share bit as well (the server asks for both)", () => {
    expect(explorerPermissions(Permission.MOUNT_VIEW | Permission.MOUNT_UPLOAD).share).toBe(false);
    expect(explorerPermissions(Permission.MOUNT_VIEW | Permission.FILE_SHARE).share).toBe(true);
  });
});
