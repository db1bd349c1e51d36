/**
 * Downloads by visitors without credentials from the public part of the tree
 * (docs/public-browsing.md): each one is counted against its address's hourly
 * limit (the `public_download_limit` setting, in the database-backed limiter,
 * so it holds across instances) and noted in the access log of the mount it
 * came from. Callers with credentials pass untouched: their downloads are
 * neither limited nor logged here.
 */
import type { AccessKind } from "@clipshare/shared";
import type { Principal } from "../../auth/principal";
import type { RateLimiter, RateLimitRule } from "../../auth/rate-limiter";
import type { SettingsService } from "../settings/settings-service";
import type { AccessClient, ShareAccessLog } from "../shares/access-log";
import { isVisitor } from "./access";
import type { MountTable } from "./mount-table";
import { isWithin } from "./vpath";

const HOUR_MS = 3_600_000;

export class VisitorDownloads {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly settings: SettingsService,
    private readonly accessLog: ShareAccessLog,
    private readonly mounts: MountTable,
  ) {}

  /**
   * One download (a file, an archive entry, a ZIP of `paths`): 429 past the
   * address's limit, else logged once per mount it reads from. A ZIP of a
   * folder above the mounts is logged in each mount below it the visitor reaches.
   */
  async admit(
    principal: Principal,
    paths: readonly string[],
    kind: AccessKind,
    client: AccessClient,
    bytes: number | null,
  ): Promise<void> {
    if (!isVisitor(principal)) return;
    const { public_download_limit: limit } = await this.settings.getAll();
    if (limit > 0) {
      const rule: RateLimitRule = { bucket: "public_download", maxFailures: limit, windowMs: HOUR_MS };
      await this.limiter.take(rule, { clientIp: client.ip });
    }
    const [active, rules] = await Promise.all([this.mounts.active(), this.mounts.folderRules()]);
    for (const path of paths) {
      // Deepest first: the first mount holding the path is the one it is read from.
      const holder = active.find((m) => isWithin(path, m.row.mount_path));
      const from = holder
        ? [holder]
        : active.filter((m) => isWithin(m.row.mount_path, path) && rules.visitorReaches(m.row.mount_path));
      for (const mount of from)
        this.accessLog.record({ type: "mount", id: mount.row.id, path }, kind, client, bytes);
    }
  }
}
