import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, describe, expect, it } from "vitest";
import { type Database, openDatabase, type Store } from "./idb";

interface Note {
  id?: number;
  tag: string;
  at: number;
}

interface Stores {
  notes: Store<Note, number>;
  pairs: Store<string, string>;
}

const schema = {
  notes: { key: "id", autoIncrement: true, indexes: ["tag", "at"] },
  pairs: {},
};

let db: Database<Stores>;
afterEach(async () => {
  await db?.delete();
});

function fresh(factory = new IDBFactory()) {
  db = openDatabase<Stores>("idb-test", 10, schema, { indexedDB: factory, IDBKeyRange });
  return db;
}

const tags = (rows: Note[]) => rows.map((r) => r.tag);

describe("IndexedDB layer", () => {
  it("numbers auto-increment rows and keeps numbering after deletes and a reopen", async () => {
    const factory = new IDBFactory();
    fresh(factory);
    expect(await db.notes.add({ tag: "a", at: 1 })).toBe(1);
    expect(await db.notes.add({ tag: "b", at: 2 })).toBe(2);
    await db.notes.delete(2);
    db.close();
    fresh(factory);
    expect(await db.notes.add({ tag: "c", at: 3 })).toBe(3);
    expect(await db.notes.get(1)).toEqual({ id: 1, tag: "a", at: 1 });
    expect(await db.notes.get(2)).toBeUndefined();
    expect(await db.notes.count()).toBe(2);
  });

  it("walks an index in order (ties by primary key), reversed, limited, and within a range", async () => {
    fresh();
    for (const [tag, at] of [
      ["x", 30],
      ["y", 10],
      ["z", 20],
      ["w", 20],
    ] as const)
      await db.notes.add({ tag, at });

    expect(tags(await db.notes.all({ index: "at" }))).toEqual(["y", "z", "w", "x"]);
    expect(tags(await db.notes.all({ index: "at", reverse: true }))).toEqual(["x", "w", "z", "y"]);
    expect(await db.notes.keys({ index: "at", limit: 2 })).toEqual([2, 3]);
    expect(tags(await db.notes.all({ index: "at", to: 20 }))).toEqual(["y", "z", "w"]);
    expect(tags(await db.notes.all({ index: "at", only: 20 }))).toEqual(["z", "w"]);
    expect(tags(await db.notes.all())).toEqual(["x", "y", "z", "w"]);
  });

  it("deletes and modifies the rows a query visits, and says how many", async () => {
    fresh();
    for (const at of [1, 2, 3, 4, 5]) await db.notes.add({ tag: at % 2 ? "odd" : "even", at });

    expect(await db.notes.deleteAll({ index: "at", to: 2 })).toBe(2);
    expect(await db.notes.modify((n) => (n.tag === "odd" ? { ...n, tag: "ODD" } : undefined))).toBe(2);
    expect(tags(await db.notes.all({ index: "at" }))).toEqual(["ODD", "even", "ODD"]);
    expect(await db.notes.deleteAll({ index: "tag", only: "nothing" })).toBe(0);

    expect(await db.notes.update(4, { tag: "four" })).toBe(true);
    expect(await db.notes.get(4)).toEqual({ id: 4, tag: "four", at: 4 });
    expect(await db.notes.update(99, { tag: "none" })).toBe(false);
    expect(await db.notes.get(99)).toBeUndefined();

    await db.notes.bulkDelete([3, 5]);
    expect(await db.notes.keys()).toEqual([4]);
    await db.notes.clear();
    expect(await db.notes.count()).toBe(0);
  });

  it("stores rows under keys given with put when the store has no key path", async () => {
    fresh();
    await db.pairs.put("one", "k1");
    await db.pairs.put("uno", "k1");
    expect(await db.pairs.get("k1")).toBe("uno");
    expect(await db.pairs.keys()).toEqual(["k1"]);
  });

  it("a transaction over several stores writes all of its work or, when it fails, none", async () => {
    fresh();
    await db.notes.add({ tag: "kept", at: 1 });
    await db.pairs.put("kept", "k");

    await expect(
      db.transaction(["notes", "pairs"], async ({ notes, pairs }) => {
        await notes.clear();
        await pairs.put("changed", "k");
        throw new Error("stop");
      }),
    ).rejects.toThrow("stop");
    expect(tags(await db.notes.all())).toEqual(["kept"]);
    expect(await db.pairs.get("k")).toBe("kept");

    // A failing request (a duplicate key) takes the whole transaction back too.
    await expect(
      db.transaction(["notes"], async ({ notes }) => {
        await notes.add({ tag: "new", at: 2 });
        await notes.add({ id: 1, tag: "dup", at: 3 });
      }),
    ).rejects.toMatchObject({ name: "ConstraintError" });
    expect(tags(await db.notes.all())).toEqual(["kept"]);

    await db.transaction(["notes", "pairs"], async ({ notes, pairs }) => {
      await notes.clear();
      await notes.add({ tag: "after", at: 4 });
      await pairs.put(String(await notes.count()), "k");
    });
    expect(tags(await db.notes.all())).toEqual(["after"]);
    expect(await db.pairs.get("k")).toBe("1");
  });

  it("fails each call with a clear error where IndexedDB is missing", async () => {
    const none = openDatabase<Stores>("idb-none", 10, schema, {
      indexedDB: undefined as unknown as IDBFactory,
      IDBKeyRange,
    });
    await expect(none.notes.count()).rejects.toThrow("IndexedDB is unavailable");
    await expect(none.pairs.put("v", "k")).rejects.toThrow("IndexedDB is unavailable");
  });
});
