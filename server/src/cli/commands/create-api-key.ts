/** `create-api-key`: an API key made through the same service (and rules) as the admin API. */
import { ALL_PERMISSIONS, Permission, type PermissionName } from "@clipshare/shared";
import { ConfigError, parseDuration } from "../../config";
import { type Db, migrateToLatest } from "../../db/database";
import { ApiKeyService } from "../../domain/api-keys/api-key-service";
import { AppError } from "../../errors";
import { type Command, parseOptions, serverConfig, UsageError, withDatabase } from "../command";

const PERMISSION_NAMES = Object.keys(Permission) as PermissionName[];

export const createApiKey: Command = {
  name: "create-api-key",
  summary: "create an API key and print it once",
  help: `Usage: clipshare-server create-api-key --name NAME [--permissions LIST] [--base-path PATH]
                                     [--expires WHEN] [--user NAME] [--quiet]

Creates an API key with the same rules as Admin → Key management and prints the key once.

  --name NAME          unique name of the key
  --permissions LIST   comma-separated: ${PERMISSION_NAMES.join(", ")},
                       or "all", or a permission bitmask number (default: none)
  --base-path PATH     the only part of the mounts the key sees (default /)
  --expires WHEN       "never", a date (2027-01-31 or ISO time) or a duration from now
                       (90m, 12h, 30d); default 24 hours, as in the admin panel
  --user NAME          the user the key belongs to (default: the first administrator); the
                       key never does more than that user may
  --quiet              print only the key (for scripts)`,

  async run(args, io) {
    const { values } = parseOptions(
      args,
      {
        name: { type: "string" },
        permissions: { type: "string" },
        "base-path": { type: "string" },
        expires: { type: "string" },
        quiet: { type: "boolean" },
        user: { type: "string" },
      },
      { min: 0, max: 0, names: "" },
    );
    if (values.name === undefined) throw new UsageError("--name is required");
    const request = {
      name: values.name,
      permissions: parsePermissions(values.permissions ?? ""),
      ...(values["base-path"] === undefined ? {} : { basic_path: values["base-path"] }),
      ...(values.expires === undefined ? {} : { expires_at: parseExpiry(values.expires) }),
    };
    const config = serverConfig(io.env, "existing");
    await withDatabase(config, async (db) => {
      await migrateToLatest(db);
      const owner = await keyOwner(db, values.user);
      const key = await new ApiKeyService(db, config.secretKey).create(request, owner);
      if (values.quiet) {
        io.out(key.key);
        return;
      }
      io.out(`Created API key "${key.name}" (id ${key.id})`);
      io.out(`  permissions: ${key.permission_names.join(", ") || "none"}`);
      io.out(`  base path:   ${key.basic_path}`);
      io.out(`  expires:     ${key.expires_at ?? "never"}`);
      io.out(`Key: ${key.key}`);
      io.note("Shown once: store it now.");
    });
  },
};

/** The user named by --user, else the first administrator (who owns the keys made before accounts). */
async function keyOwner(db: Db, username: string | undefined): Promise<string> {
  let query = db.selectFrom("users").select("id");
  query =
    username === undefined
      ? query.where("role", "=", "admin").orderBy("created_at").orderBy("id")
      : query.where("username", "=", username);
  const row = await query.executeTakeFirst();
  if (!row) {
    throw new AppError(
      404,
      "user_not_found",
      username === undefined
        ? "No administrator exists yet: start ClipShare once"
        : `No user named "${username}"`,
    );
  }
  return row.id;
}

/** Names (any case, "-" for "_"), "all", "none" or a bitmask; the service validates the mask. */
function parsePermissions(raw: string): number {
  const text = raw.trim();
  if (text === "" || text.toLowerCase() === "none") return 0;
  if (/^\d+$/.test(text)) return Number(text);
  let mask = 0;
  for (const part of text.split(",").map((p) => p.trim().toUpperCase().replace(/-/g, "_"))) {
    if (part === "ALL") {
      mask |= ALL_PERMISSIONS;
      continue;
    }
    if (!(PERMISSION_NAMES as string[]).includes(part)) {
      throw new UsageError(`Unknown permission "${part}"; use ${PERMISSION_NAMES.join(", ")} or all`);
    }
    mask |= Permission[part as PermissionName];
  }
  return mask;
}

/** "never", a date the API accepts, or a duration from now. */
function parseExpiry(raw: string): string {
  if (/^\d+\s*[smhd]$/i.test(raw.trim())) {
    try {
      return new Date(Date.now() + parseDuration("--expires", raw) * 1000).toISOString();
    } catch (e) {
      if (e instanceof ConfigError) throw new UsageError(e.message);
      throw e;
    }
  }
  return raw;
}
