/** `backup` and `restore`: the database in the portable format of db/backup/format.ts. */

import type { Config } from "../../config";
import { dumpDatabase } from "../../db/backup/dump";
import { assertSameSecretKey, loadBackup, openBackup } from "../../db/backup/load";
import type { Db } from "../../db/database";
import { notifyInstances } from "../../domain/fs/cache-bus";
import { type Command, parseOptions, serverConfig, withDatabase } from "../command";
import { openBackupLines, writeBackupFile } from "./backup-files";

const WHAT_IS_SAVED = `The backup holds the database: pastes, file shares (their rows, not the files), API keys,
the administrator, settings, storage configurations and mounts. Stored files (DATA_DIR/files,
S3 buckets) are not included: back them up separately. Secrets stay as stored (password
hashes, API-key hashes, encrypted storage credentials), so the restored data works only with
the same SECRET_KEY (or DATA_DIR/secret.key): keep it with the backup, somewhere safe.`;

export const backup: Command = {
  name: "backup",
  summary: "write the database to a portable backup file",
  help: `Usage: clipshare-server backup FILE

Writes the whole database as JSON lines to FILE (gzip-compressed when FILE ends in .gz;
"-" writes to stdout). The dump is one consistent snapshot, taken while ClipShare keeps
running. The file is created owner-only and appears only once it is complete.

${WHAT_IS_SAVED}`,

  async run(args, io) {
    const { positionals } = parseOptions(
      args,
      {},
      { min: 1, max: 1, names: "the backup file (or - for stdout)" },
    );
    const file = positionals[0]!;
    const config = serverConfig(io.env, "existing");
    await withDatabase(config, async (db) => {
      const rows = await writeBackupFile(file, (write) =>
        dumpDatabase(db, { dialect: config.database.dialect, secretKey: config.secretKey, write }),
      );
      const report = file === "-" ? io.note : io.out;
      report(`Backed up ${describeRows(rows)} to ${file === "-" ? "stdout" : file}`);
      io.note("Stored files are not in the backup; restoring it needs the same SECRET_KEY.");
    });
  },
};

export const restore: Command = {
  name: "restore",
  summary: "load a backup into an empty database (--force: replace)",
  help: `Usage: clipshare-server restore FILE [--force] [--allow-key-change]

Loads a backup made by "backup" (from SQLite or PostgreSQL) into the configured database,
in one transaction: a damaged or cut-off file changes nothing. A backup from an older
ClipShare is upgraded after loading; one from a newer ClipShare is refused.
Stop ClipShare (every instance) before restoring.

  --force              replace the content of a database that is not empty
  --allow-key-change   load a backup made under another SECRET_KEY (its API keys, signed
                       links and storage credentials will not work; recreate them)

${WHAT_IS_SAVED}`,

  async run(args, io) {
    const { positionals, values } = parseOptions(
      args,
      { force: { type: "boolean" }, "allow-key-change": { type: "boolean" } },
      { min: 1, max: 1, names: "the backup file (or - for stdin)" },
    );
    // Everything that can be checked before touching the database is: a refused backup
    // leaves a new DATA_DIR without a database.
    const backupFile = await openBackup(await openBackupLines(positionals[0]!));
    const config = serverConfig(io.env, "create");
    if (!values["allow-key-change"]) assertSameSecretKey(backupFile.header, config.secretKey);
    await withDatabase(config, async (db) => {
      const result = await loadBackup(db, backupFile, { force: values.force === true });
      await tellRunningInstances(config, db);
      const { header } = backupFile;
      io.out(
        `Restored ${describeRows(result.rows)} (schema ${header.schema}, ` +
          `backed up ${header.created_at} from ${header.dialect})`,
      );
      if (result.upgraded.length > 0) io.out(`Upgraded the schema: ${result.upgraded.join(", ")}`);
    });
  },
};

/** PostgreSQL instances still running keep caches of mounts and listings: ask them to drop them. */
async function tellRunningInstances(config: Config, db: Db): Promise<void> {
  if (config.database.dialect !== "postgres") return;
  await notifyInstances(db, { op: "mounts" }, "restore");
}

function describeRows(rows: Record<string, number>): string {
  const total = Object.values(rows).reduce((a, b) => a + b, 0);
  const shown = ["pastes", "files", "api_keys", "mounts", "storage_configs", "system_settings"]
    .map((t) => `${t} ${rows[t] ?? 0}`)
    .join(", ");
  return `${total} rows (${shown})`;
}
