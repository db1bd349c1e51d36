/**
 * Builds the mount and file-system services of one instance and what keeps
 * them consistent across instances: the invalidation bus (chosen by
 * context.ts) and the task runner. context.ts calls this once; close() stops
 * the runner (handing running tasks back to the queue) and the bus.
 */
import type { RateLimiter } from "../../auth/rate-limiter";
import type { Db, Dialect } from "../../db/database";
import type { Logger } from "../../logger";
import type { FileShareService } from "../files/file-share-service";
import { MountService } from "../mounts/mount-service";
import type { SettingsService } from "../settings/settings-service";
import type { ShareAccessLog } from "../shares/access-log";
import type { StorageConfigService } from "../storage-configs/storage-config-service";
import { resolveCreator } from "../tasks/creator";
import { type TaskHandler, TaskRunner, type TaskRunnerOptions } from "../tasks/task-runner";
import { TaskService } from "../tasks/task-service";
import type { UploadSessions } from "../uploads/upload-sessions";
import type { BusHandlers, CacheBus } from "./cache-bus";
import { FolderPasses } from "./folder-passes";
import { FolderSettingsService } from "./folder-settings-service";
import { FsBatchService } from "./fs-batch";
import { FsCaches } from "./fs-caches";
import { DirectUploadService } from "./fs-direct-uploads";
import { FsLinks } from "./fs-links";
import { FsMultipartUploads } from "./fs-multipart-uploads";
import { FsShareService } from "./fs-share-service";
import { copyTaskHandler, deleteTaskHandler } from "./fs-tasks";
import { FsUploadService } from "./fs-uploads";
import { IndexRepository } from "./index-repository";
import { IndexService } from "./index-service";
import { LinkSigner } from "./link-signer";
import { MountTable } from "./mount-table";
import { SearchService } from "./search-service";
import { VirtualFileSystem } from "./vfs";
import { VisitorDownloads } from "./visitor-downloads";
import { ZipService } from "./zip-service";

export interface FsServicesDeps {
  /** Signs explorer links and upload URLs. */
  secretKey: Buffer;
  dialect: Dialect;
  /** Connects this instance to the others (started; its messages go to `handlers`). */
  cacheBus: (handlers: BusHandlers) => Promise<CacheBus>;
  log: Logger;
  db: Db;
  instanceId: string;
  storageConfigs: StorageConfigService;
  settings: SettingsService;
  /** Path-password checks are rate-limited like every password check, and visitors' downloads too. */
  rateLimiter: RateLimiter;
  /** Visitors' downloads from the public part are logged beside share visits. */
  accessLog: ShareAccessLog;
  fileShares: FileShareService;
  /** The upload domain's sessions (signed URLs, multipart), shared with file shares. */
  uploadSessions: UploadSessions;
  taskRunner?: TaskRunnerOptions;
  /** Task types of other areas, registered before the runner starts so no queued task finds no handler. */
  taskHandlers?: (parts: { uploads: FsUploadService }) => Record<string, TaskHandler>;
}

export interface FsServices {
  mounts: MountService;
  folders: FolderSettingsService;
  table: MountTable;
  caches: FsCaches;
  vfs: VirtualFileSystem;
  links: FsLinks;
  uploads: FsUploadService;
  directUploads: DirectUploadService;
  multipartUploads: FsMultipartUploads;
  batch: FsBatchService;
  search: SearchService;
  index: IndexService;
  zip: ZipService;
  visitorDownloads: VisitorDownloads;
  shares: FsShareService;
  tasks: TaskService;
  runner: TaskRunner;
  close(): Promise<void>;
}

export async function createFsServices(deps: FsServicesDeps): Promise<FsServices> {
  const { log, db, instanceId, dialect } = deps;
  const caches = new FsCaches();
  const table = new MountTable(db, deps.storageConfigs);
  const signer = new LinkSigner(deps.secretKey);
  const tasks = new TaskService(db, dialect, instanceId);
  const folderPasses = new FolderPasses(deps.secretKey);
  const vfs = new VirtualFileSystem(table, caches, folderPasses);
  const index = new IndexService(db, table, tasks, caches, new IndexRepository(db, dialect), log);
  vfs.attachIndex(index);
  const links = new FsLinks(vfs, deps.settings, signer);
  const uploads = new FsUploadService(vfs, deps.settings, tasks, deps.storageConfigs.quota);
  const directUploads = new DirectUploadService(
    vfs,
    deps.settings,
    deps.storageConfigs.quota,
    deps.uploadSessions,
  );
  const runner = new TaskRunner(tasks, (createdBy) => resolveCreator(db, createdBy), log, {
    // With SQLite there is exactly one instance: whatever was running at start-up was interrupted.
    startupStaleMs: dialect === "sqlite" ? 0 : undefined,
    ...deps.taskRunner,
  });
  runner.register("copy", copyTaskHandler(vfs));
  runner.register("delete", deleteTaskHandler(vfs));
  runner.register("index", index.crawlHandler());
  for (const [type, handler] of Object.entries(deps.taskHandlers?.({ uploads }) ?? {})) {
    runner.register(type, handler);
  }
  caches.onMountsChanged(() => table.invalidate());
  caches.onTasksQueued(() => runner.wake());

  const bus = await deps.cacheBus({ onMessage: (m) => caches.apply(m), onReset: () => caches.reset() });
  caches.attach(bus);
  await runner.start();
  index.startSchedule();

  let closing: Promise<void> | null = null;
  return {
    mounts: new MountService(db, deps.storageConfigs, () => caches.mountsChanged()),
    folders: new FolderSettingsService(db, vfs, folderPasses, deps.rateLimiter, () => caches.mountsChanged()),
    table,
    caches,
    vfs,
    links,
    uploads,
    directUploads,
    multipartUploads: new FsMultipartUploads(vfs, directUploads),
    batch: new FsBatchService(vfs, tasks, directUploads, links),
    search: new SearchService(vfs, index),
    index,
    zip: new ZipService(vfs, signer, db),
    visitorDownloads: new VisitorDownloads(deps.rateLimiter, deps.settings, deps.accessLog, table),
    shares: new FsShareService(db, vfs, deps.fileShares),
    tasks,
    runner,
    close() {
      closing ??= (async () => {
        index.stopSchedule();
        await runner.stop();
        await bus.close();
      })();
      return closing;
    },
  };
}
