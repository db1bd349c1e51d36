/** `reset-admin-password`: a way back in for an administrator who lost the password. */
import { RateLimiter } from "../../auth/rate-limiter";
import { migrateToLatest } from "../../db/database";
import { AccountService } from "../../domain/users/account-service";
import { type Command, parseOptions, serverConfig, withDatabase } from "../command";

export const resetAdminPassword: Command = {
  name: "reset-admin-password",
  summary: "new random admin password (printed once); signs out every session",
  help: `Usage: clipshare-server reset-admin-password [--username NAME]

Sets a new random password for the administrator and prints it once. Every admin login token
is revoked and WebDAV clients must sign in again with the new password, on every instance.
Failed-login counters of the account are cleared, so the new password works at once.

  --username NAME   the administrator to reset (needed only when there are several)

Works while ClipShare runs. Use the server's environment (DATA_DIR, DATABASE_URL).`,

  async run(args, io) {
    const { values } = parseOptions(args, { username: { type: "string" } }, { min: 0, max: 0, names: "" });
    const config = serverConfig(io.env, "existing");
    await withDatabase(config, async (db) => {
      await migrateToLatest(db);
      const admins = new AccountService(db, new RateLimiter(db), config.adminTokenTtlSeconds);
      const { username, password } = await admins.resetPassword(values.username);
      io.out(`New password for administrator "${username}": ${password}`);
      io.note("Shown once: store it now. All admin sessions were signed out.");
    });
  },
};
