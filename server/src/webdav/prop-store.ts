/**
 * Dead properties (RFC 4918 §4, PROPPATCH) in the webdav_props table, keyed by
 * normalized virtual path and "{namespace}local" name; the value is the
 * property element serialized as a self-contained XML fragment. They follow
 * their resource through COPY and MOVE and go with it on DELETE.
 */
import { type RawBuilder, sql, type Transaction } from "kysely";
import { type Db, nowIso } from "../db/database";
import type { Database } from "../db/schema";
import { belowPath } from "./lock-store";

export interface DeadProp {
  /** "{namespace}local" */
  name: string;
  /** The whole property element, self-contained (see serializeElement). */
  valueXml: string;
}

export type PropPatchOp = { op: "set"; name: string; valueXml: string } | { op: "remove"; name: string };

/** Paths per IN (…) query, well under every database's parameter limit. */
const BATCH = 500;

export class PropStore {
  constructor(private readonly db: Db) {}

  async get(path: string): Promise<DeadProp[]> {
    const rows = await this.db
      .selectFrom("webdav_props")
      .select(["name", "value_xml"])
      .where("path", "=", path)
      .orderBy("name")
      .execute();
    return rows.map((r) => ({ name: r.name, valueXml: r.value_xml }));
  }

  /** Properties of many resources (one directory page) at once. */
  async getMany(paths: string[]): Promise<Map<string, DeadProp[]>> {
    const result = new Map<string, DeadProp[]>();
    for (let i = 0; i < paths.length; i += BATCH) {
      const rows = await this.db
        .selectFrom("webdav_props")
        .select(["path", "name", "value_xml"])
        .where("path", "in", paths.slice(i, i + BATCH))
        .orderBy("name")
        .execute();
      for (const r of rows) {
        const list = result.get(r.path) ?? [];
        list.push({ name: r.name, valueXml: r.value_xml });
        result.set(r.path, list);
      }
    }
    return result;
  }

  /** Applies every instruction in order, all or nothing (PROPPATCH is atomic). */
  async patch(path: string, ops: PropPatchOp[]): Promise<void> {
    const now = nowIso();
    await this.db.transaction().execute(async (trx) => {
      for (const op of ops) {
        if (op.op === "remove") {
          await trx.deleteFrom("webdav_props").where("path", "=", path).where("name", "=", op.name).execute();
        } else {
          await trx
            .insertInto("webdav_props")
            .values({ path, name: op.name, value_xml: op.valueXml, updated_at: now })
            .onConflict((oc) =>
              oc.columns(["path", "name"]).doUpdateSet({ value_xml: op.valueXml, updated_at: now }),
            )
            .execute();
        }
      }
    });
  }

  /** Forgets the properties of `path` and everything below it. */
  async removeTree(path: string): Promise<void> {
    await this.db
      .deleteFrom("webdav_props")
      .where((eb) => eb.or([eb("path", "=", path), belowPath(path)]))
      .execute();
  }

  /** Copies the properties of `from` (and, with `deep`, of everything below it) to the same places under `to`. */
  async copyTree(from: string, to: string, deep: boolean): Promise<void> {
    const now = nowIso();
    await this.replaceTree(from, to, (trx, moved) =>
      trx
        .insertInto("webdav_props")
        .columns(["path", "name", "value_xml", "updated_at"])
        .expression((eb) =>
          eb
            .selectFrom("webdav_props")
            // In the order of the columns above: INSERT … SELECT places by position.
            .select([
              moved.as("path"),
              "name",
              "value_xml",
              sql<string>`cast(${now} as text)`.as("updated_at"),
            ])
            .where((w) => (deep ? w.or([w("path", "=", from), belowPath(from)]) : w("path", "=", from))),
        )
        .execute(),
    );
  }

  /** Moves the properties of `from` and everything below it to `to`. */
  async moveTree(from: string, to: string): Promise<void> {
    await this.replaceTree(from, to, (trx, moved) =>
      trx
        .updateTable("webdav_props")
        .set({ path: moved })
        .where((eb) => eb.or([eb("path", "=", from), belowPath(from)]))
        .execute(),
    );
  }

  /**
   * In one transaction, forgets what `to` and everything below it had, then
   * `place` puts properties there; `moved` is a row's path with `from` swapped for `to`.
   */
  private async replaceTree(
    from: string,
    to: string,
    place: (trx: Transaction<Database>, moved: RawBuilder<string>) => Promise<unknown>,
  ): Promise<void> {
    const cut = [...from].length + 1;
    const moved = sql<string>`cast(${to} as text) || substr(path, cast(${cut} as integer))`;
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom("webdav_props")
        .where((eb) => eb.or([eb("path", "=", to), belowPath(to)]))
        .execute();
      await place(trx, moved);
    });
  }
}
