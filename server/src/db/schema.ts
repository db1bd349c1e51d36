/**
 * Row types of every table. Conventions (both dialects):
 * - ids are text (random UUIDs made by the application),
 * - timestamps are UTC ISO-8601 strings with milliseconds ("2026-01-01T00:00:00.000Z"),
 *   which sort and compare correctly as text,
 * - booleans are integers 0/1, sizes are 64-bit integers (read back as JS numbers).
 */
import type { Generated, Insertable, Selectable, Updateable } from "kysely";

/** Accounts (domain/users): administrators, users and guests. */
export interface UsersTable {
  id: string;
  username: string;
  /** scrypt (auth/passwords.ts); "" for an account that cannot sign in with a password. */
  password_hash: string;
  /** admin | user | guest (ROLES in packages/shared). */
  role: Generated<string>;
  display_name: string | null;
  disabled: Generated<number>;
  /** The grant of a user or guest: permission bits and the base path they apply under. */
  permissions: Generated<number>;
  base_path: Generated<string>;
  /** Bytes everything the user owns may take in total; null: no limit. */
  quota_bytes: number | null;
  /** The address an administrator gave; a first single sign-on with it (verified) links to this user. */
  email: string | null;
  last_login_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Who a user is at an OpenID Connect provider: issuer + subject, stored at their first sign-in. */
export interface UserIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: string;
  created_at: string;
}

/** The single sign-on provider (one row): its client secret sealed with the SecretBox. */
export interface SsoSettingsTable {
  id: string;
  enabled: number;
  provider_name: string;
  issuer_url: string;
  client_id: string;
  client_secret_enc: string | null;
  scopes: string;
  role_claim: string;
  /** JSON: {"admin": [...], "user": [...], "guest": [...]}, the claim values of each role. */
  role_values: string;
  default_role: string;
  /** JSON array of e-mail domains; empty: any. */
  allowed_domains: string;
  auto_create: number;
  updated_at: string;
}

/**
 * A sign-in under way, known by the SHA-256 of its state: the nonce and PKCE verifier until the
 * provider sends the person back, then the user and the SHA-256 of the one-time code the web
 * app trades for a session.
 */
export interface SsoFlowsTable {
  state_hash: string;
  nonce: string;
  code_verifier: string;
  user_id: string | null;
  handoff_hash: string | null;
  expires_at: string;
}

/** Sign-in sessions: the bearer token is known only by its SHA-256; `id` names it in lists. */
export interface SessionsTable {
  token_hash: string;
  id: string | null;
  user_id: string;
  user_agent: string | null;
  client_ip: string | null;
  last_seen_at: string | null;
  expires_at: string;
  created_at: string;
}

/** A user's TOTP (RFC 6238) secret, sealed (SecretBox); unconfirmed until a first code proved it. */
export interface UserTotpTable {
  user_id: string;
  secret_sealed: string;
  confirmed_at: string | null;
  /** The last 30-second step a code was accepted for; a code works once. */
  last_step: number | null;
  created_at: string;
}

/** One-time recovery codes: only the SHA-256 of each is kept; `used_at` set once it signed someone in. */
export interface UserRecoveryCodesTable {
  code_hash: string;
  user_id: string;
  used_at: string | null;
  created_at: string;
}

/** What a correct password hands out when a second factor is due: single-use, short-lived. */
export interface SignInChallengesTable {
  token_hash: string;
  user_id: string;
  expires_at: string;
  created_at: string;
}

/** A user's WebAuthn credential (passkey): its public key (COSE, base64url) and last signature counter. */
export interface UserPasskeysTable {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: Generated<number>;
  /** JSON array of transport names. */
  transports: Generated<string>;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** A user's WebDAV-only password: only an HMAC of it (under a pepper of the server secret) is kept. */
export interface AppPasswordsTable {
  id: string;
  user_id: string;
  name: string;
  password_hash: string;
  created_at: string;
  last_used_at: string | null;
}

/** A challenge handed to a browser to sign: single-use, short-lived, kept only as a hash. */
export interface WebauthnChallengesTable {
  challenge_hash: string;
  purpose: "register" | "second_factor" | "sign_in";
  user_id: string | null;
  expires_at: string;
  created_at: string;
}

/** A user's quota on one storage config (bytes of their shares stored there). */
export interface UserStorageQuotasTable {
  user_id: string;
  storage_config_id: string;
  quota_bytes: number;
}

/** One-time sign-up links an administrator sends (only the token's hash is kept). */
export interface UserInvitationsTable {
  id: string;
  token_hash: string;
  role: string;
  permissions: number;
  base_path: string;
  note: string | null;
  created_by: string;
  expires_at: string;
  accepted_by: string | null;
  accepted_at: string | null;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  permissions: number;
  role: string;
  basic_path: string;
  is_guest: number;
  /** The user the key belongs to; it never does more than they may. */
  user_id: string | null;
  expires_at: string | null;
  last_used: string | null;
  created_at: string;
  updated_at: string;
}

export interface PastesTable {
  id: string;
  slug: string;
  content: string;
  remark: string | null;
  password_hash: string | null;
  expires_at: string | null;
  max_views: number | null;
  views: Generated<number>;
  /** 1: `content` is an end-to-end encrypted stream (base64url) the server cannot read. */
  encrypted: Generated<number>;
  created_by: string;
  /** The user this belongs to (auth/creator.ts), whoever of theirs made it. */
  owner_id: string | null;
  created_at: string;
  updated_at: string;
  /** 1: visits are counted but not logged (share_access_log). */
  no_log: Generated<number>;
}

export interface StorageConfigsTable {
  id: string;
  name: string;
  /** One of STORAGE_TYPES (packages/shared): LOCAL, S3, WEBDAV, SFTP, FTP. */
  storage_type: string;
  provider_type: string | null;
  endpoint_url: string | null;
  bucket_name: string | null;
  region: string | null;
  /** AES-256-GCM ciphertexts; never returned by the API. */
  access_key_id_enc: string | null;
  secret_access_key_enc: string | null;
  path_style: number;
  default_folder: string;
  /** Root directory for LOCAL configs. */
  root_path: string | null;
  custom_host: string | null;
  /** SFTP only: the pinned SHA-256 host-key fingerprint ("SHA256:<base64>"), null = not pinned. */
  host_key: string | null;
  signature_expires_in: number;
  is_public: number;
  is_default: number;
  total_storage_bytes: number | null;
  admin_id: string | null;
  created_at: string;
  updated_at: string;
  last_used: string | null;
}

export interface FilesTable {
  id: string;
  slug: string;
  filename: string;
  storage_config_id: string | null;
  storage_type: string;
  storage_path: string;
  /** Explorer path when the share points at a mounted file (fs/create-share). */
  file_path: string | null;
  mount_id: string | null;
  mimetype: string;
  size: number;
  etag: string | null;
  remark: string | null;
  password_hash: string | null;
  expires_at: string | null;
  max_views: number | null;
  views: Generated<number>;
  use_proxy: number;
  /** pending (presigned, not committed yet) or active. Pending rows are never public. */
  status: string;
  /** Delete the object with the row when the share expires or is used up. */
  delete_object_with_share: number;
  /** End-to-end encrypted share: its sealed name and type (base64url); null for plain shares. */
  encrypted_meta: Generated<string | null>;
  created_by: string;
  /** The user this belongs to (auth/creator.ts), whoever of theirs made it. */
  owner_id: string | null;
  created_at: string;
  updated_at: string;
  /** 1: visits are counted but not logged (share_access_log). */
  no_log: Generated<number>;
}

/** One delivery of a share to a visitor, or of a public mount file (public browsing); exactly one of paste_id, file_id and mount_id is set. */
export interface ShareAccessLogTable {
  id: string;
  paste_id: string | null;
  file_id: string | null;
  at: string;
  /** An AccessKind id (page_view, raw, download, preview, presigned_redirect). */
  kind: string;
  /** Bytes sent; null where unknown (a redirect to storage, a URL handed out). */
  bytes: number | null;
  browser: string;
  os: string;
  /** Only while IP logging is on. */
  ip: string | null;
  /** A visitor's download from a mount (public browsing): the mount, and the file's virtual path. */
  mount_id: string | null;
  path: string | null;
}

export interface MountsTable {
  id: string;
  name: string;
  storage_type: string;
  storage_config_id: string | null;
  mount_path: string;
  /** Folder inside the storage the mount shows ("" = the whole storage); never the share area. */
  root: Generated<string>;
  remark: string | null;
  is_active: number;
  created_by: string;
  sort_order: number;
  cache_ttl: number;
  web_proxy: number;
  webdav_policy: string;
  enable_sign: number;
  sign_expires: number | null;
  created_at: string;
  updated_at: string;
  last_used: string | null;
  /** 1: the mount's entries are kept in fs_index. */
  index_enabled: Generated<number>;
  /** Newline-separated globs (mount-relative) an entry must match to be indexed; "" = all. */
  index_include: Generated<string>;
  /** Newline-separated globs whose matches (and what lies below them) are never indexed. */
  index_exclude: Generated<string>;
  /** Minutes between scheduled crawls; 0 = on demand only. */
  index_interval: Generated<number>;
  /** 1: visitors without credentials may read the mount (public browsing; folder settings below may differ). */
  public_browse: Generated<number>;
}

export interface FolderSettingsTable {
  id: string;
  /** Normalized virtual path of the folder. */
  path: string;
  /** Markdown shown above the listing; null = as the folder above. */
  readme: string | null;
  /** One line shown above the listing; null = as the folder above. */
  header: string | null;
  /** Newline-separated globs relative to the folder; they add up with the folders above. */
  hide_patterns: Generated<string>;
  /** scrypt hash of the path password; null = as the folder above. */
  password_hash: string | null;
  /** 1/0 = may / may not be listed publicly; null = as the folder above. */
  public_list: number | null;
  created_at: string;
  updated_at: string;
}

export interface MountIndexStateTable {
  mount_id: string;
  /** 1 once a full crawl finished: search may use the index. */
  complete: Generated<number>;
  generation: Generated<number>;
  /** The crawl task that owns the mount now; at most one across instances. */
  task_id: string | null;
  entries: Generated<number>;
  last_started: string | null;
  last_finished: string | null;
  last_duration_ms: number | null;
  last_error: string | null;
  /** What lies directly in the mount's root: bytes of its files, its files, its folders. */
  root_size: Generated<number>;
  root_files: Generated<number>;
  root_folders: Generated<number>;
}

export interface FsIndexTable {
  id: Generated<number>;
  mount_id: string;
  /** Mount-relative path ("" never: the mount root itself is not an entry). */
  path: string;
  parent: string;
  name: string;
  size: number;
  mtime: string | null;
  type: "file" | "dir";
  is_link: number;
  gen: number;
  /** On a folder's row, what lies directly in it: bytes of its files, its files, its folders. */
  dir_size: Generated<number>;
  dir_files: Generated<number>;
  dir_folders: Generated<number>;
}

export interface SystemSettingsTable {
  key: string;
  value: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface TasksTable {
  id: string;
  type: string;
  status: string;
  created_by: string;
  /** The user this belongs to (auth/creator.ts), whoever of theirs made it. */
  owner_id: string | null;
  /** JSON: what the task works on (items, paths, options). */
  payload: string;
  /** JSON: per-item results and messages. */
  result: string | null;
  total_items: number;
  processed_items: number;
  failed_items: number;
  skipped_items: number;
  total_bytes: number;
  processed_bytes: number;
  current_file: string | null;
  error: string | null;
  /** Instance that claimed it (for scale-out) and when; cleared when it finishes. */
  claimed_by: string | null;
  claimed_at: string | null;
  cancel_requested: number;
  /** How many times a runner started it (more than 1 after a resume). */
  attempts: Generated<number>;
  /** Why it was restarted or stopped, for its owner to see. */
  notice: string | null;
  /** A pending task is not claimed before this time (a retry's backoff); null = at once. */
  run_after: Generated<string | null>;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface RateLimitsTable {
  bucket: string;
  subject: string;
  count: number;
  /** Epoch milliseconds when the window ends. */
  reset_at: number;
}

export interface UploadSessionsTable {
  id: string;
  /** stream | presign | multipart | multipart-completing (domain/uploads/upload-sessions.ts) */
  kind: string;
  storage_config_id: string | null;
  mount_id: string | null;
  storage_path: string;
  upload_id: string | null;
  file_id: string | null;
  created_by: string;
  expires_at: string;
  created_at: string;
  /** Multipart sessions: the client's part size and count (null for other kinds). */
  part_size: number | null;
  part_count: number | null;
}

/** A file request (domain/requests): visitors upload to its creator through /r/<slug>. */
export interface FileRequestsTable {
  id: string;
  slug: string;
  title: string;
  message: string | null;
  created_by: string;
  /** The user this belongs to (auth/creator.ts), whoever of theirs made it. */
  owner_id: string | null;
  /** share: uploads become file shares on `storage_config_id`; folder: files in `folder_path` of a mount. */
  target_kind: string;
  storage_config_id: string | null;
  folder_path: string | null;
  max_files: number | null;
  max_file_bytes: number | null;
  max_total_bytes: number | null;
  /** JSON array of extensions (".pdf") and MIME patterns ("image/*"); null = any type. */
  allowed_types: string | null;
  expires_at: string | null;
  password_hash: string | null;
  show_received: number;
  /** open | closed */
  status: string;
  /** Slots held by uploads in flight or received (taken by one guarded UPDATE). */
  reserved_files: number;
  reserved_bytes: number;
  created_at: string;
  updated_at: string;
}

export interface FileRequestUploadsTable {
  id: string;
  request_id: string;
  /** pending (holds a slot while bytes arrive) | received */
  status: string;
  filename: string;
  size: number;
  file_id: string | null;
  /** Folder targets: the file's path in the explorer tree. */
  path: string | null;
  /** The storage's multipart upload id. */
  upload_id: string | null;
  uploader_name: string | null;
  note: string | null;
  expires_at: string;
  created_at: string;
}

/** A collection (domain/collections): one link, /c/<slug>, for several files or a folder. */
export interface CollectionsTable {
  id: string;
  slug: string;
  title: string | null;
  remark: string | null;
  password_hash: string | null;
  expires_at: string | null;
  max_views: number | null;
  views: Generated<number>;
  /** 1: visits are counted but not logged. */
  no_log: Generated<number>;
  created_by: string;
  /** The user this belongs to (auth/creator.ts), whoever of theirs made it. */
  owner_id: string | null;
  created_at: string;
  updated_at: string;
}

/** What a collection holds, in order: a file share (`file_id`) or an explorer path (`path`). */
export interface CollectionItemsTable {
  id: string;
  collection_id: string;
  position: number;
  file_id: string | null;
  /** Normalized virtual path of a file or folder, read as it is at each visit. */
  path: string | null;
  /** The name shown (the file share's name, or the path's last segment). */
  name: string;
  is_directory: number;
  /** A file share's size when it was added; null for paths. */
  size: number | null;
  created_at: string;
}

/** The notification settings (one row, id "default"): SMTP, default recipients and events, signing secret. */
export interface NotificationSettingsTable {
  id: string;
  smtp_host: string | null;
  smtp_port: number | null;
  /** none | starttls | tls */
  smtp_security: Generated<string>;
  smtp_user: string | null;
  /** SecretBox ciphertext. */
  smtp_password_enc: string | null;
  smtp_from: string | null;
  default_email: string | null;
  default_webhook_url: string | null;
  /** JSON array of NOTIFICATION_EVENTS. */
  default_events: string;
  /** SecretBox ciphertext of the HMAC key webhooks are signed with. */
  webhook_secret_enc: string | null;
  updated_at: string;
}

/** A share's or request's own recipients and events, in place of the defaults. */
export interface NotificationRulesTable {
  /** paste | file | collection | request */
  subject_kind: string;
  subject_id: string;
  email: string | null;
  webhook_url: string | null;
  /** JSON array of NOTIFICATION_EVENTS. */
  events: string;
  created_by: string;
  updated_at: string;
}

/** A user's own default recipients and events, in place of the administrator's. */
export interface UserNotificationDefaultsTable {
  user_id: string;
  email: string | null;
  webhook_url: string | null;
  /** JSON array of NOTIFICATION_EVENTS. */
  events: string;
  updated_at: string;
}

/** Every event once: its id names what happened to what. */
export interface NotificationEventsTable {
  id: string;
  event: string;
  subject_kind: string;
  subject_id: string;
  created_at: string;
}

/** One event to one target: the delivery log. */
export interface NotificationDeliveriesTable {
  id: string;
  event_id: string;
  event: string;
  subject_kind: string;
  subject_id: string;
  /** webhook | email */
  channel: string;
  /** The URL or the address. */
  target: string;
  /** The JSON document sent (the webhook's body; the e-mail is written from it). */
  payload: string;
  /** pending | sending | delivered | failed */
  status: string;
  attempts: Generated<number>;
  next_attempt_at: string | null;
  /** The receiver's HTTP status (webhooks) or SMTP reply code (e-mail) of the last attempt. */
  last_status: number | null;
  last_error: string | null;
  /** Whose share or request it is (the admin's log shows everyone's). */
  created_by: string;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
}

export interface WebdavLocksTable {
  token: string;
  path: string;
  /** exclusive | shared */
  scope: string;
  /** 0 or infinity */
  depth: string;
  owner_xml: string | null;
  principal: string;
  timeout_seconds: number;
  expires_at: string;
  created_at: string;
}

export interface WebdavPropsTable {
  path: string;
  /** "{namespace}localname" */
  name: string;
  value_xml: string;
  updated_at: string;
}

export interface Database {
  folder_settings: FolderSettingsTable;
  fs_index: FsIndexTable;
  mount_index_state: MountIndexStateTable;
  users: UsersTable;
  sessions: SessionsTable;
  user_invitations: UserInvitationsTable;
  user_storage_quotas: UserStorageQuotasTable;
  user_totp: UserTotpTable;
  user_recovery_codes: UserRecoveryCodesTable;
  sign_in_challenges: SignInChallengesTable;
  user_passkeys: UserPasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  app_passwords: AppPasswordsTable;
  api_keys: ApiKeysTable;
  pastes: PastesTable;
  storage_configs: StorageConfigsTable;
  files: FilesTable;
  mounts: MountsTable;
  system_settings: SystemSettingsTable;
  tasks: TasksTable;
  rate_limits: RateLimitsTable;
  upload_sessions: UploadSessionsTable;
  webdav_locks: WebdavLocksTable;
  webdav_props: WebdavPropsTable;
  share_access_log: ShareAccessLogTable;
  file_requests: FileRequestsTable;
  file_request_uploads: FileRequestUploadsTable;
  collections: CollectionsTable;
  collection_items: CollectionItemsTable;
  notification_settings: NotificationSettingsTable;
  user_identities: UserIdentitiesTable;
  sso_settings: SsoSettingsTable;
  sso_flows: SsoFlowsTable;
  notification_rules: NotificationRulesTable;
  user_notification_defaults: UserNotificationDefaultsTable;
  notification_events: NotificationEventsTable;
  notification_deliveries: NotificationDeliveriesTable;
}

export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type InvitationRow = Selectable<UserInvitationsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type PasteRow = Selectable<PastesTable>;
export type NewPaste = Insertable<PastesTable>;
export type PasteUpdate = Updateable<PastesTable>;
export type StorageConfigRow = Selectable<StorageConfigsTable>;
export type FileRow = Selectable<FilesTable>;
export type MountRow = Selectable<MountsTable>;
export type TaskRow = Selectable<TasksTable>;
export type FsIndexRow = Selectable<FsIndexTable>;
export type MountIndexStateRow = Selectable<MountIndexStateTable>;
export type FileRequestRow = Selectable<FileRequestsTable>;
export type FileRequestUploadRow = Selectable<FileRequestUploadsTable>;
export type FolderSettingsRow = Selectable<FolderSettingsTable>;
export type CollectionRow = Selectable<CollectionsTable>;
export type CollectionItemRow = Selectable<CollectionItemsTable>;
export type SsoSettingsRow = Selectable<SsoSettingsTable>;
export type NotificationSettingsRow = Selectable<NotificationSettingsTable>;
export type NotificationRuleRow = Selectable<NotificationRulesTable>;
export type NotificationDeliveryRow = Selectable<NotificationDeliveriesTable>;
