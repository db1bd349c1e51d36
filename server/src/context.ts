/**
 * Composition root: the only place that picks concrete implementations
 * (database dialect, services). Routes receive the context and never import
 * singletons, so tests build as many isolated contexts as they like.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { RateLimiter } from "./auth/rate-limiter";
import type { Config } from "./config";
import { type Db, migrateToLatest, openDatabase } from "./db/database";
import { PgNotifyBus } from "./db/pg-notify-bus";
import { ApiKeyService } from "./domain/api-keys/api-key-service";
import { type CollectionService, createCollectionServices } from "./domain/collections/collection-service";
import type { CollectionVisits } from "./domain/collections/collection-visits";
import { FileShareService } from "./domain/files/file-share-service";
import { ShareMultipartService } from "./domain/files/share-multipart";
import { UploadService } from "./domain/files/upload-service";
import { type BusMessage, CACHE_CHANNEL, LocalCacheBus } from "./domain/fs/cache-bus";
import { createFsServices, type FsServices } from "./domain/fs/fs-services";
import { Housekeeping } from "./domain/housekeeping";
import type { MountService } from "./domain/mounts/mount-service";
import { notifyTaskHandler } from "./domain/notifications/delivery";
import { NotificationService } from "./domain/notifications/notification-service";
import { NotificationSettingsService } from "./domain/notifications/notification-settings";
import { PasteService } from "./domain/pastes/paste-service";
import { createFileRequestServices, type FileRequestService } from "./domain/requests/file-request-service";
import type { FileRequestVisits } from "./domain/requests/request-visits";
import { SettingsService } from "./domain/settings/settings-service";
import { ShareAccessLog } from "./domain/shares/access-log";
import { ShareAccessTokens } from "./domain/shares/access-tokens";
import { ShareEvents } from "./domain/shares/share-events";
import { OidcSignIn } from "./domain/sso/oidc-sign-in";
import { SsoSettingsService } from "./domain/sso/sso-settings";
import { StorageEndpointPolicy } from "./domain/storage-configs/endpoint-policy";
import { StorageConfigService } from "./domain/storage-configs/storage-config-service";
import type { TaskHandler, TaskRunnerOptions } from "./domain/tasks/task-runner";
import { ThumbnailService } from "./domain/thumbnails/thumbnail-service";
import { SignedUploads } from "./domain/uploads/signed-put";
import { UploadSessions } from "./domain/uploads/upload-sessions";
import { UploadSigner } from "./domain/uploads/upload-signer";
import { urlFetchTaskHandler } from "./domain/url-upload/url-fetch-task";
import { UrlUploadService } from "./domain/url-upload/url-upload-service";
import { AccountService } from "./domain/users/account-service";
import { AppPasswordService } from "./domain/users/app-password-service";
import { InvitationService } from "./domain/users/invitation-service";
import { PasskeyService } from "./domain/users/passkey-service";
import { SecondFactorService } from "./domain/users/second-factor-service";
import { UserQuota } from "./domain/users/user-quota";
import { UserService } from "./domain/users/user-service";
import { SecretBox } from "./lib/crypto";
import { HostAllowList } from "./lib/net/host-allow-list";
import { SafeFetcher } from "./lib/net/safe-fetch";
import { spoolDir } from "./lib/spool";
import { createLogger, type Logger } from "./logger";
import { createDriver, type DriverFactory } from "./storage/create-driver";

export interface AppContext {
  config: Config;
  log: Logger;
  db: Db;
  /** Identifies this process among scaled-out instances (task claims, locks). */
  instanceId: string;
  secretBox: SecretBox;
  rateLimiter: RateLimiter;
  /** Signing in, sessions, one's own credentials. */
  accounts: AccountService;
  secondFactors: SecondFactorService;
  /** WebAuthn credentials: registered in My account, a second factor, or a passwordless sign-in. */
  passkeys: PasskeyService;
  appPasswords: AppPasswordService;
  /** Users as administrators manage them. */
  users: UserService;
  invitations: InvitationService;
  /** Single sign-on with OpenID Connect: the provider's settings and the sign-in flow. */
  sso: { settings: SsoSettingsService; signIn: OidcSignIn };
  apiKeys: ApiKeyService;
  settings: SettingsService;
  shareTokens: ShareAccessTokens;
  /** Who opened which share, written in batches (flushed by close()). */
  accessLog: ShareAccessLog;
  pastes: PasteService;
  storageConfigs: StorageConfigService;
  fileShares: FileShareService;
  uploads: UploadService;
  /** File shares uploaded in parts (also the base of URL multipart uploads). */
  shareMultipart: ShareMultipartService;
  /** PUTs to this server's signed upload URLs (LOCAL presigned files and parts), for every target. */
  signedUploads: SignedUploads;
  /** URL upload and server-side fetching of remote files. */
  urlUploads: UrlUploadService;
  mounts: MountService;
  /** Mounts, the virtual file system, its caches and tasks. */
  fs: FsServices;
  fileRequests: FileRequestService;
  fileRequestVisits: FileRequestVisits;
  /** Collections (one link for several files or a folder): management, and their visitors. */
  collections: CollectionService;
  collectionVisits: CollectionVisits;
  /** The periodic sweep of leftovers (main.ts schedules it). */
  housekeeping: Housekeeping;
  /** Thumbnails of images and videos, cached in DATA_DIR/thumbnails. */
  thumbnails: ThumbnailService;
  /** E-mails and webhooks about requests and shares, sent by "notify" tasks. */
  notifications: NotificationService;
  close(): Promise<void>;
}

/** The storage drivers this server builds: the stock ones, with the configured S3 tuning and trusted CAs. */
function driverFactory(config: Config): DriverFactory {
  const tuning = config.s3MultipartCopyAbove ? { singleCopyLimit: config.s3MultipartCopyAbove } : undefined;
  const defaults = { ca: config.storageCa };
  return (settings) =>
    createDriver(settings.type === "S3" && tuning ? { ...settings, tuning } : settings, defaults);
}

export interface ContextOptions {
  log?: Logger;
  /** Overrides the task runner's timings (tests that watch progress write it on every step). */
  taskRunner?: TaskRunnerOptions;
}

export async function createContext(config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const log = options.log ?? createLogger(config.logLevel);
  const db = openDatabase(config.database);
  try {
    const applied = await migrateToLatest(db);
    if (applied.length > 0) log.info({ migrations: applied }, "Applied database migrations");
  } catch (e) {
    await db.destroy();
    throw e;
  }
  const rateLimiter = new RateLimiter(db);
  const settings = new SettingsService(db);
  const secretBox = new SecretBox(config.secretKey);
  const passkeys = new PasskeyService(db, rateLimiter, log);
  const secondFactors = new SecondFactorService(db, secretBox, rateLimiter, passkeys, settings);
  const accounts = new AccountService(db, rateLimiter, config.adminTokenTtlSeconds, secondFactors);
  const shareTokens = new ShareAccessTokens(config.secretKey);
  const storageConfigs = new StorageConfigService(
    db,
    driverFactory(config),
    secretBox,
    config.dataDir,
    new StorageEndpointPolicy(new HostAllowList(config.storageEndpointAllow)),
  );
  const shareEvents = new ShareEvents(log);
  const fileShares = new FileShareService(db, storageConfigs, rateLimiter, shareTokens, log, shareEvents);
  const uploadSigner = new UploadSigner(config.secretKey);
  const uploadSessions = new UploadSessions(db, uploadSigner, log);
  const userQuota = new UserQuota(db, config.database.dialect);
  const users = new UserService(db, config.database.dialect, userQuota);
  const uploads = new UploadService(db, storageConfigs, settings, fileShares, uploadSessions, userQuota);
  // Unique per process (a restarted instance must not mistake its predecessor's tasks for its own);
  // the name prefix shows operators which instance claimed a task.
  const instanceId = config.instanceName ? `${config.instanceName}-${randomUUID()}` : randomUUID();
  const fetcher = new SafeFetcher({ allow: new HostAllowList(config.urlFetchAllow) });
  const accessLog = new ShareAccessLog(db, settings, log);
  // Webhooks follow the same address rules; a receiver gets 15 s of silence at most.
  const webhookFetcher = new SafeFetcher({
    allow: new HostAllowList(config.urlFetchAllow),
    connectTimeoutMs: 10_000,
    idleTimeoutMs: 15_000,
    userAgent: "ClipShare-Webhook",
  });
  // Registered with the runners before the notification service exists (it needs their task service).
  let notify: TaskHandler | null = null;
  const fs = await createFsServices({
    secretKey: config.secretKey,
    accessLog,
    dialect: config.database.dialect,
    rateLimiter,
    cacheBus: async (handlers) => {
      if (config.database.dialect !== "postgres") return new LocalCacheBus();
      const bus = new PgNotifyBus<BusMessage>(
        config.database.url,
        db,
        CACHE_CHANNEL,
        instanceId,
        handlers,
        log,
      );
      await bus.start();
      return bus;
    },
    log,
    db,
    instanceId,
    storageConfigs,
    settings,
    fileShares,
    uploadSessions,
    taskRunner: {
      staleMs: config.taskStaleSeconds * 1000,
      // Several heartbeats fit in the stale window, and the recovery poll runs often enough to act on it.
      heartbeatMs: Math.min(10_000, (config.taskStaleSeconds * 1000) / 4),
      pollMs: Math.min(5000, (config.taskStaleSeconds * 1000) / 2),
      ...options.taskRunner,
    },
    taskHandlers: ({ uploads: fsUploads }) => ({
      download: urlFetchTaskHandler({ fetcher, uploads, fsUploads, settings, secrets: secretBox }),
      notify: (run) => notify!(run),
    }),
  });
  const shareMultipart = new ShareMultipartService(uploads, uploadSessions, storageConfigs, settings);
  // The one signed-PUT route's receiver: the session names its target, share or mount.
  const signedUploads = new SignedUploads(uploadSessions, uploadSigner, {
    share: (session) => uploads.receiveTarget(session),
    mount: (session) => fs.directUploads.receiveTarget(session),
  });
  const ssoSettings = new SsoSettingsService(db, secretBox, fetcher);
  const notificationSettings = new NotificationSettingsService(db, secretBox, webhookFetcher);
  const tasksQueued = () => void fs.caches.tasksQueued();
  const notifications = new NotificationService(
    db,
    notificationSettings,
    fs.tasks,
    webhookFetcher,
    tasksQueued,
  );
  notify = notifyTaskHandler({
    db,
    settings: notificationSettings,
    fetcher: webhookFetcher,
    tasks: fs.tasks,
    tasksQueued,
  });
  shareEvents.listen(async (moment, kind, row) => {
    const subject = await notifications.subject(kind, row.id);
    if (subject) await notifications.emit(moment === "opened" ? "share_opened" : "share_last_view", subject);
  });
  const fileRequests = createFileRequestServices({
    db,
    fileShares,
    log,
    limiter: rateLimiter,
    tokens: shareTokens,
    configs: storageConfigs,
    shareMultipart,
    vfs: fs.vfs,
    fsMultipart: fs.multipartUploads,
    onReceived: (request, upload) => {
      void notifications
        .subject("request", request.id)
        .then((subject) =>
          subject
            ? notifications.emit(
                "request_received",
                subject,
                {
                  filename: upload.filename,
                  size: upload.size,
                  ...(upload.uploader_name ? { uploader_name: upload.uploader_name } : {}),
                  ...(upload.note ? { note: upload.note } : {}),
                },
                { key: upload.id },
              )
            : 0,
        )
        .catch((err: unknown) => log.warn({ err }, "Could not record a file request's notification"));
    },
  });
  fileShares.onDelete((ids) => fileRequests.requests.sharesDeleted(ids));
  const collections = createCollectionServices({
    db,
    rateLimiter,
    tokens: shareTokens,
    vfs: fs.vfs,
    fileShares,
    configs: storageConfigs,
    events: shareEvents,
  });
  const ctx: AppContext = {
    config,
    log,
    db,
    instanceId,
    secretBox,
    rateLimiter,
    accounts,
    secondFactors,
    passkeys,
    appPasswords: new AppPasswordService(db, config.secretKey),
    users,
    invitations: new InvitationService(db, users, accounts, rateLimiter),
    apiKeys: new ApiKeyService(db, config.secretKey),
    settings,
    shareTokens,
    accessLog,
    pastes: new PasteService(db, rateLimiter, shareTokens, shareEvents),
    storageConfigs,
    fileShares,
    uploads,
    shareMultipart,
    signedUploads,
    urlUploads: new UrlUploadService({
      fetcher,
      uploads,
      multipart: shareMultipart,
      shares: fileShares,
      settings,
      secrets: secretBox,
      tasks: fs.tasks,
      tasksQueued: () => fs.caches.tasksQueued(),
    }),
    mounts: fs.mounts,
    fs,
    fileRequests: fileRequests.requests,
    fileRequestVisits: fileRequests.visits,
    collections: collections.collections,
    collectionVisits: collections.visits,
    housekeeping: new Housekeeping({
      fileRequests: fileRequests.uploads,
      db,
      log,
      fileShares,
      accounts,
      directUploads: fs.directUploads,
      storageConfigs,
      accessLog,
      notifications,
      spoolDir: spoolDir(config.dataDir),
    }),
    thumbnails: new ThumbnailService(path.join(config.dataDir, "thumbnails"), log, {
      maxCacheBytes: config.thumbnailCacheBytes,
    }),
    notifications,
    sso: {
      settings: ssoSettings,
      signIn: new OidcSignIn(db, ssoSettings, accounts, users, rateLimiter, fetcher, log),
    },
    close: async () => {
      await accessLog.close();
      await fs.close();
      await db.destroy();
    },
  };
  await settings.seed();
  await storageConfigs.ensureDefaultLocal();
  await accounts.bootstrap(config.admin, log);
  return ctx;
}
