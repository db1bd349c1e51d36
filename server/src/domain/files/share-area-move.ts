/**
 * Moves file-share objects stored before the share area existed (anywhere in
 * their storage, where a mount could show them) into SHARE_AREA of the same
 * storage (docs/decisions/0050-share-area.md). Runs with housekeeping on
 * every instance, so each step is safe to run twice at once:
 *
 * 1. copy the object to its share-area key (overwriting: that key is ours),
 * 2. point the share rows at it, only where they still name the old key,
 * 3. remove the old object.
 *
 * A link works at every moment: before step 2 the row names the old object,
 * after it the new one. A crash before step 2 leaves a copy the next run
 * overwrites. Only active shares move: a pending upload's multipart session is
 * bound to its key, so it moves on the first run after it completes.
 */

import { SHARE_AREA } from "@clipshare/shared";
import { sql } from "kysely";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import { isAppError } from "../../errors";
import type { Logger } from "../../logger";
import { shareAreaPath } from "../fs/share-areas";
import type { StorageConfigService } from "../storage-configs/storage-config-service";

const BATCH = 100;
const AREA_PREFIX = `${SHARE_AREA}/`;

export interface ShareAreaMoveReport {
  moved: number;
  /** Objects that could not be moved this time (storage unreachable, object missing); retried next run. */
  failed: number;
}

export async function moveSharesIntoArea(
  db: Db,
  configs: StorageConfigService,
  log: Logger,
): Promise<ShareAreaMoveReport> {
  const report: ShareAreaMoveReport = { moved: 0, failed: 0 };
  const failedKeys = new Set<string>();
  for (;;) {
    const rows = await db
      .selectFrom("files")
      .select(["storage_config_id", "storage_path"])
      .distinct()
      .where("file_path", "is", null)
      .where("status", "=", "active")
      .where("storage_config_id", "is not", null)
      // substr, not LIKE: SQLite's LIKE ignores case, and the same test must hold on both dialects.
      .where(sql<boolean>`substr(storage_path, 1, ${AREA_PREFIX.length}) <> ${AREA_PREFIX}`)
      .orderBy("storage_config_id")
      .orderBy("storage_path")
      .limit(BATCH + failedKeys.size)
      .execute();
    const todo = rows.filter((r) => !failedKeys.has(`${r.storage_config_id}\n${r.storage_path}`));
    if (todo.length === 0) return report;
    for (const { storage_config_id: configId, storage_path: from } of todo) {
      const to = shareAreaPath(from);
      try {
        const { driver } = await configs.driverById(configId!);
        await driver.copy(from, to, { overwrite: true });
        const stored = await driver.stat(to);
        await db
          .updateTable("files")
          .set({ storage_path: to, etag: stored?.etag ?? null, updated_at: nowIso() })
          .where("storage_config_id", "=", configId)
          .where("storage_path", "=", from)
          .where("file_path", "is", null)
          .execute();
        await driver.remove(from).catch((e: unknown) => {
          // Another instance moved it first.
          if (!(isAppError(e) && e.status === 404)) throw e;
        });
        report.moved++;
      } catch (err) {
        failedKeys.add(`${configId}\n${from}`);
        report.failed++;
        log.warn(
          { err, storageConfigId: configId, storagePath: from },
          "Could not move a share into the share area",
        );
      }
    }
  }
}
