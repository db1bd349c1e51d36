/**
 * Builds the mount and file-system services of one instance and what keeps
 * them consistent across instances: the invalidation bus (PostgreSQL
 * LISTEN/NOTIFY, nothing with SQLite) and the task runner. context.ts calls
 * this once; close() stops the runner (handing running tasks back to the
 * queue) and the bus.
 */
import type { Config } from "../../config";
import type { Db } from "../../db/database";
import type { Logger } from "../../logger";
import type { FileShareService } from "../files/file-share-service";
import { MountService } from "../mounts/mount-service";
import type { SettingsService } from "../settings/settings-service";
import type { StorageConfigService } from "../storage-configs/storage-config-service";
import { resolveCreator } from "../tasks/creator";
import { type TaskHandler, TaskRunner, type TaskRunnerOptions } from "../tasks/task-runner";
import { TaskService } from "../tasks/task-service";
import { type CacheBus, LocalCacheBus, PgCacheBus } from "./cache-bus";
import { FsBatchService } from "./fs-batch";
import { FsCaches } from "./fs-caches";
import { DirectUploadService } from "./fs-direct-uploads";
import { FsLinks } from "./fs-links";
import { FsMultipartUploads } from "./fs-multipart-uploads";
import { FsShareService } from "./fs-share-service";
import { copyTaskHandler, deleteTaskHandler } from "./fs-tasks";
import { FsUploadService } from "./fs-uploads";
import { LinkSigner } from "./link-signer";
import { MountTable } from "./mount-table";
import { SearchService } from "./search-service";
import { VirtualFileSystem } from "./vfs";
import { ZipService } from "./zip-service";

export interface FsServicesDeps {
  config: Config;
  log: Logger;
  db: Db;
  instanceId: string;
  storageConfigs: StorageConfigService;
  settings: SettingsService;
  fileShares: FileShareService;
  taskRunner?: TaskRunnerOptions;
  /** Task types of other areas, registered before the runner starts so no queued task finds no handler. */
  taskHandlers?: (parts: { uploads: FsUploadService }) => Record<string, TaskHandler>;
}

export interface FsServices {
  mounts: MountService;
  table: MountTable;
  caches: FsCaches;
  vfs: VirtualFileSystem;
  links: FsLinks;
  uploads: FsUploadService;
  directUploads: DirectUploadService;
  multipartUploads: FsMultipartUploads;
  batch: FsBatchService;
  search: SearchService;
  zip: ZipService;
  shares: FsShareService;
  tasks: TaskService;
  runner: TaskRunner;
  close(): Promise<void>;
}

export async function createFsServices(deps: FsServicesDeps): Promise<FsServices> {
  const { config, log, db, instanceId } = deps;
  const caches = new FsCaches();
  const table = new MountTable(db, deps.storageConfigs);
  const signer = new LinkSigner(config.secretKey);
  const tasks = new TaskService(db, config.database.dialect, instanceId);
  const vfs = new VirtualFileSystem(table, caches);
  const links = new FsLinks(vfs, deps.settings, signer);
  const uploads = new FsUploadService(vfs, deps.settings, tasks, deps.storageConfigs.quota);
  const directUploads = new DirectUploadService(
    db,
    vfs,
    deps.settings,
    deps.storageConfigs.quota,
    signer,
    log,
  );
  const runner = new TaskRunner(tasks, (createdBy) => resolveCreator(db, createdBy), log, {
    // With SQLite there is exactly one instance: whatever was running at start-up was interrupted.
    startupStaleMs: config.database.dialect === "sqlite" ? 0 : undefined,
    staleMs: config.taskStaleSeconds * 1000,
    // Several heartbeats fit in the stale window, and the recovery poll runs often enough to act on it.
    heartbeatMs: Math.min(10_000, (config.taskStaleSeconds * 1000) / 4),
    pollMs: Math.min(5000, (config.taskStaleSeconds * 1000) / 2),
    ...deps.taskRunner,
  });
  runner.register("copy", copyTaskHandler(vfs));
  runner.register("delete", deleteTaskHandler(vfs));
  for (const [type, handler] of Object.entries(deps.taskHandlers?.({ uploads }) ?? {})) {
    runner.register(type, handler);
  }
  caches.onMountsChanged(() => table.invalidate());
  caches.onTasksQueued(() => runner.wake());

  let bus: CacheBus = new LocalCacheBus();
  if (config.database.dialect === "postgres") {
    const pgBus = new PgCacheBus(
      config.database.url,
      db,
      instanceId,
      { onMessage: (m) => caches.apply(m), onReset: () => caches.reset() },
      log,
    );
    await pgBus.start();
    bus = pgBus;
  }
  caches.attach(bus);
  await runner.start();

  let closing: Promise<void> | null = null;
  return {
    mounts: new MountService(db, deps.storageConfigs, () => caches.mountsChanged()),
    table,
    caches,
    vfs,
    links,
    uploads,
    directUploads,
    multipartUploads: new FsMultipartUploads(db, vfs, directUploads),
    batch: new FsBatchService(vfs, tasks, directUploads, links),
    search: new SearchService(vfs),
    zip: new ZipService(vfs, signer, db),
    shares: new FsShareService(db, vfs, deps.fileShares),
    tasks,
    runner,
    close() {
      closing ??= (async () => {
        await runner.stop();
        await bus.close();
      })();
      return closing;
    },
  };
}
