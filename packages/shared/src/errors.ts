/**
 * Every error id the server answers with: its usual HTTP status and its text in
 * English and Chinese. The server throws these ids (server/src/errors.ts), the
 * web app and the CLI switch on them, and an answer's `message` follows the
 * request's Accept-Language: English keeps the server's own (often more
 * specific) sentence, Chinese gets the text below. Chinese texts use 0.7.3's
 * wording where its clients look for a phrase in the message (密码错误,
 * 不存在, 已过期, 链接后缀已被占用, 存储空间不足, 未授权访问).
 */

export interface ErrorText {
  /** The status the server answers this id with. */
  status: number;
  en: string;
  zh: string;
  /** The Chinese text is followed by the thrower's English sentence, which names what was wrong. */
  detail?: true;
}

const define = <T extends Record<string, ErrorText>>(catalogue: T) => catalogue;

export const ERROR_CATALOGUE = define({
  // Request shape
  bad_request: { status: 400, en: "Bad request", zh: "请求无效", detail: true },
  validation_failed: { status: 400, en: "Invalid input", zh: "输入无效", detail: true },
  conflicting_fields: {
    status: 400,
    en: "A field was sent in two spellings with different values",
    zh: "同一字段以两种写法发送且值不同",
    detail: true,
  },
  invalid_json: { status: 400, en: "Request body is not valid JSON", zh: "请求体不是有效的 JSON" },
  invalid_content_type: {
    status: 400,
    en: "Expected a multipart/form-data body",
    zh: "需要 multipart/form-data 请求体",
  },
  invalid_multipart: {
    status: 400,
    en: "Malformed multipart/form-data body",
    zh: "multipart/form-data 请求体格式错误",
  },
  missing_file: { status: 400, en: "Please provide the file", zh: "请提供文件" },
  invalid_file_name: { status: 400, en: "File name is invalid", zh: "文件名无效" },
  invalid_expiry: { status: 400, en: "Expiry time must be in the future", zh: "过期时间必须晚于当前时间" },
  nothing_to_update: { status: 400, en: "No valid update fields provided", zh: "没有提供可更新的字段" },
  field_after_file: {
    status: 400,
    en: "A form field came after the file; send it before the file",
    zh: "表单字段在文件之后发送，请在文件之前发送",
    detail: true,
  },
  request_aborted: { status: 400, en: "The client closed the connection", zh: "客户端已关闭连接" },
  content_too_large: { status: 413, en: "Content too large", zh: "内容过大" },
  // Authentication and permissions
  unauthorized: { status: 401, en: "Authentication required", zh: "需要认证访问" },
  token_expired: {
    status: 401,
    en: "Admin token is invalid or has expired",
    zh: "管理员令牌无效或已过期",
  },
  api_key_invalid: { status: 401, en: "API key is invalid or has expired", zh: "API 密钥无效或已过期" },
  invalid_credentials: { status: 401, en: "Invalid credentials", zh: "用户名或密码错误" },
  basic_auth_not_accepted: {
    status: 401,
    en: "HTTP Basic authentication is accepted only by WebDAV (/dav)",
    zh: "HTTP Basic 认证仅用于 WebDAV (/dav)",
  },
  wrong_current_password: { status: 401, en: "Current password is wrong", zh: "当前密码错误" },
  password_unchanged: {
    status: 400,
    en: "New password cannot equal current password",
    zh: "新密码不能与当前密码相同",
  },
  conflict: { status: 409, en: "Conflict", zh: "冲突" },
  gone: { status: 410, en: "Gone", zh: "已不存在" },
  forbidden: { status: 403, en: "Forbidden", zh: "无权访问" },
  admin_required: { status: 403, en: "Administrator permission required", zh: "自定义权限检查失败" },
  permission_denied: { status: 403, en: "Missing permission", zh: "需要以下权限" },
  rate_limited: { status: 429, en: "Too many attempts, try again later", zh: "尝试次数过多，请稍后再试" },
  // Signed links
  invalid_signature: { status: 403, en: "Upload URL is invalid or has expired", zh: "签名无效或已过期" },
  signature_expired: { status: 401, en: "Signature has expired", zh: "签名已过期" },
  malformed_signature: { status: 401, en: "Signature is malformed", zh: "签名格式错误" },
  signature_required: { status: 401, en: "This file requires signed access", zh: "此文件需要签名访问" },
  // Shares
  not_found: { status: 404, en: "Requested resource not found", zh: "请求的资源不存在" },
  paste_not_found: { status: 404, en: "Paste does not exist or has expired", zh: "文本分享不存在或已过期" },
  paste_expired: {
    status: 410,
    en: "Paste has expired or reached its view limit",
    zh: "文本分享已过期或超过最大查看次数",
  },
  paste_view_limit: { status: 410, en: "Paste has reached its view limit", zh: "文本分享已达到最大查看次数" },
  file_not_found: { status: 404, en: "File does not exist", zh: "文件不存在" },
  file_expired: { status: 410, en: "File has expired", zh: "文件已过期" },
  file_view_limit: { status: 410, en: "File has reached its view limit", zh: "文件已达到最大查看次数" },
  wrong_password: { status: 401, en: "Incorrect password", zh: "密码错误" },
  password_required: { status: 401, en: "A password is required", zh: "需要密码才能访问此内容" },
  password_not_required: { status: 400, en: "This share has no password", zh: "此分享不需要密码" },
  slug_taken: {
    status: 409,
    en: "Link suffix already taken, try another",
    zh: "链接后缀已被占用，请尝试其他后缀",
  },
  encrypted_paste: {
    status: 409,
    en: "Not possible on an encrypted paste",
    zh: "加密的文本分享不支持此操作",
  },
  preview_bot_refused: {
    status: 403,
    en: "Link previews do not get file contents: open this link in a browser",
    zh: "链接预览不会获得文件内容：请在浏览器中打开此链接",
  },
  not_office_file: { status: 400, en: "Not an Office file type", zh: "不是 Office 文件类型" },
  // Collections
  collection_not_found: { status: 404, en: "Collection does not exist", zh: "合集不存在" },
  collection_expired: { status: 410, en: "Collection has expired", zh: "合集已过期" },
  collection_view_limit: {
    status: 410,
    en: "Collection has reached its view limit",
    zh: "合集已达到最大查看次数",
  },
  collection_item_not_found: {
    status: 404,
    en: "This item is not in the collection",
    zh: "合集中没有此项目",
  },
  collection_item_invalid: {
    status: 400,
    en: "This cannot be put in a collection",
    zh: "无法将此项目加入合集",
    detail: true,
  },
  // Notifications
  notification_subject_not_found: {
    status: 404,
    en: "No share or file request of yours has this id",
    zh: "没有此 ID 的分享或文件收集请求",
  },
  smtp_not_configured: {
    status: 409,
    en: "E-mail is not set up: enter the SMTP server and sender in the notification settings",
    zh: "尚未设置电子邮件：请在通知设置中填写 SMTP 服务器和发件人",
  },
  notification_target_missing: {
    status: 409,
    en: "There is no default recipient for this channel",
    zh: "此渠道没有默认收件人",
  },
  // File requests
  request_not_found: { status: 404, en: "File request does not exist", zh: "文件收集请求不存在" },
  request_closed: {
    status: 410,
    en: "This file request is closed and takes no more files",
    zh: "此文件收集请求已关闭，不再接收文件",
  },
  request_expired: {
    status: 410,
    en: "This file request has expired and takes no more files",
    zh: "此文件收集请求已过期，不再接收文件",
  },
  request_full: {
    status: 409,
    en: "This file request has received all the files it takes",
    zh: "此文件收集请求已收满文件",
  },
  request_file_too_large: {
    status: 413,
    en: "The file is larger than this request allows",
    zh: "文件超过此请求允许的大小",
    detail: true,
  },
  request_type_not_allowed: {
    status: 415,
    en: "This type of file is not accepted by this request",
    zh: "此请求不接受这种类型的文件",
    detail: true,
  },
  request_size_mismatch: {
    status: 400,
    en: "The stored file is not the size the upload announced",
    zh: "存储的文件大小与上传时声明的不一致",
  },
  request_target_invalid: {
    status: 400,
    en: "The target of the request cannot take uploads",
    zh: "此请求的目标无法接收上传",
    detail: true,
  },
  // Uploads
  upload_session_not_found: { status: 404, en: "Upload session does not exist", zh: "上传会话不存在" },
  upload_not_found: {
    status: 404,
    en: "Multipart upload does not exist or has expired",
    zh: "分片上传不存在或已过期",
  },
  upload_released: {
    status: 409,
    en: "The upload was released before it finished; upload the file again",
    zh: "上传在完成前已被释放，请重新上传",
  },
  upload_completing: { status: 409, en: "This upload is already being completed", zh: "此上传正在完成中" },
  upload_aborted: { status: 400, en: "Upload was aborted", zh: "上传已取消" },
  invalid_part: { status: 400, en: "Invalid part number", zh: "分片编号无效" },
  invalid_parts: {
    status: 400,
    en: "partSize × partCount is smaller than fileSize",
    zh: "分片大小 × 分片数量小于文件大小",
  },
  too_many_parts: {
    status: 400,
    en: "A multipart upload has at most 10000 parts",
    zh: "分片上传最多 10000 个分片",
  },
  size_mismatch: { status: 400, en: "Upload size does not match", zh: "上传大小不一致" },
  upload_missing: {
    status: 400,
    en: "The file has not been uploaded to storage yet; upload it before committing",
    zh: "文件尚未上传到存储，请先上传再提交",
  },
  size_unknown: { status: 400, en: "The remote file's size is unknown", zh: "远程文件大小未知" },
  too_many_files: {
    status: 400,
    en: "Too many files: use the server-side copy",
    zh: "文件过多，请使用服务器端复制",
  },
  insufficient_storage: { status: 507, en: "Insufficient storage", zh: "存储空间不足", detail: true },
  // Storage
  invalid_path: { status: 400, en: "Invalid path", zh: "路径无效" },
  path_outside_root: { status: 403, en: "Path leaves the storage root", zh: "路径超出存储根目录" },
  target_exists: { status: 409, en: "Target already exists", zh: "目标已存在" },
  not_a_directory: { status: 409, en: "Not a directory", zh: "不是目录" },
  is_a_directory: { status: 409, en: "Is a directory", zh: "是一个目录" },
  directory_not_empty: { status: 409, en: "Directory is not empty", zh: "目录不为空" },
  dir_exists: { status: 409, en: "Directory already exists", zh: "目录已存在" },
  parent_missing: { status: 409, en: "Parent directory does not exist", zh: "父目录不存在" },
  not_supported: {
    status: 501,
    en: "This storage does not support this operation",
    zh: "此存储不支持该操作",
  },
  storage_error: {
    status: 502,
    en: "The storage failed to complete the request",
    zh: "存储未能完成请求",
  },
  storage_unreachable: {
    status: 503,
    en: "The storage could not be reached; try again later",
    zh: "无法连接存储，请稍后再试",
  },
  storage_access_denied: { status: 403, en: "The storage refused access", zh: "存储拒绝访问" },
  invalid_range: { status: 400, en: "Invalid byte range", zh: "字节范围无效" },
  range_not_satisfiable: { status: 416, en: "Requested range is not satisfiable", zh: "请求的范围无法满足" },
  // Storage configs and mounts
  storage_config_not_found: { status: 404, en: "Storage config does not exist", zh: "存储配置不存在" },
  storage_config_forbidden: {
    status: 403,
    en: "API-key users can only use public storage configs",
    zh: "API 密钥用户只能使用公开的存储配置",
  },
  storage_config_in_use: {
    status: 409,
    en: "Cannot delete this config because it is in use",
    zh: "无法删除此配置，有文件正在使用",
  },
  storage_type_immutable: {
    status: 400,
    en: "The storage type of a config cannot change; create a new config",
    zh: "存储配置的类型不能更改，请新建配置",
  },
  no_storage_config: { status: 400, en: "No storage config is available", zh: "没有可用的存储配置" },
  storage_endpoint_not_allowed: {
    status: 400,
    en: "The storage endpoint is on a private network; add the host to STORAGE_ENDPOINT_ALLOW",
    zh: "存储端点位于私有网络，请将主机加入 STORAGE_ENDPOINT_ALLOW",
  },
  mount_not_found: { status: 404, en: "Mount does not exist", zh: "挂载点不存在" },
  mount_forbidden: { status: 403, en: "No permission to access this mount", zh: "无权访问此挂载点" },
  mount_path_taken: { status: 409, en: "Mount path already exists", zh: "挂载路径已存在" },
  mount_root_overlap: {
    status: 409,
    en: "Another mount already uses this storage folder",
    zh: "另一个挂载点已使用此存储目录",
  },
  mount_root: {
    status: 403,
    en: "Cannot delete, move or replace a mount point",
    zh: "不能删除、移动或替换挂载点",
  },
  root_forbidden: { status: 403, en: "Cannot operate on root directory", zh: "不能操作根目录" },
  virtual_directory: { status: 403, en: "Path is not inside a mount point", zh: "路径不在挂载点内" },
  path_forbidden: { status: 403, en: "No permission to access this path", zh: "无权访问此路径" },
  folder_locked: {
    status: 403,
    en: "This folder is protected by a password",
    zh: "此目录受密码保护",
  },
  folder_password_wrong: { status: 403, en: "Incorrect folder password", zh: "目录密码错误" },
  folder_hidden_entries: {
    status: 403,
    en: "This folder holds hidden entries; it cannot be copied or moved as a whole",
    zh: "此目录包含隐藏的条目，不能整体复制或移动",
  },
  folder_not_locked: { status: 400, en: "This folder has no password", zh: "此目录没有密码" },
  path_reserved: { status: 403, en: "This folder is reserved for file shares", zh: "此目录保留给文件分享" },
  cross_storage: {
    status: 400,
    en: "Cannot move between different storages; copy, then delete the source",
    zh: "不能在不同存储之间移动，请先复制再删除源文件",
  },
  no_copy_items: { status: 400, en: "No cross-storage copy items found", zh: "未找到跨存储复制项" },
  wrong_mount: { status: 400, en: "Target path is not in the target mount", zh: "目标路径不在目标挂载点内" },
  // Archives opened in the explorer
  not_an_archive: {
    status: 400,
    en: "This file is not an archive ClipShare can open (zip, tar, tar.gz)",
    zh: "此文件不是可打开的压缩包（zip、tar、tar.gz）",
  },
  archive_unreadable: {
    status: 422,
    en: "The archive cannot be read (damaged or not this format)",
    zh: "无法读取压缩包（已损坏或格式不符）",
  },
  archive_entry_refused: {
    status: 422,
    en: "This entry cannot be opened here",
    zh: "此条目无法在这里打开",
    detail: true,
  },
  archive_refused: {
    status: 422,
    en: "This archive cannot be opened here: it unpacks to far more than its size",
    zh: "此压缩包无法在这里打开：解压后远大于其本身",
  },
  archive_entry_not_found: { status: 404, en: "No such entry in the archive", zh: "压缩包中不存在此条目" },
  // Tasks, admins, API keys, thumbnails
  task_not_found: { status: 404, en: "Task does not exist", zh: "任务不存在" },
  task_finished: { status: 409, en: "Task has already finished", zh: "任务已结束" },
  task_running: { status: 409, en: "Task is still running; cancel it first", zh: "任务仍在运行，请先取消" },
  index_disabled: {
    status: 409,
    en: "Indexing is off for this mount; turn it on first",
    zh: "此挂载未开启索引，请先开启",
  },
  index_busy: {
    status: 409,
    en: "Another crawl of this mount is starting; try again",
    zh: "此挂载的另一次爬取正在启动，请重试",
  },
  admin_not_found: { status: 404, en: "Admin does not exist", zh: "管理员不存在" },
  admin_ambiguous: {
    status: 400,
    en: "Several administrators exist; choose one with --username",
    zh: "存在多个管理员，请用 --username 选择一个",
    detail: true,
  },
  username_taken: { status: 409, en: "Username already exists", zh: "用户名已存在" },
  email_taken: {
    status: 409,
    en: "Another user has this e-mail address",
    zh: "另一位用户已使用此电子邮件地址",
  },
  // Accounts
  user_not_found: { status: 404, en: "User does not exist", zh: "用户不存在" },
  account_disabled: {
    status: 403,
    en: "This account is disabled; ask an administrator",
    zh: "此账户已停用，请联系管理员",
  },
  last_admin: {
    status: 409,
    en: "The last administrator cannot be deleted, disabled or given another role",
    zh: "不能删除、停用最后一位管理员或更改其角色",
  },
  transfer_required: {
    status: 400,
    en: "Choose the user who receives the deleted user's shares, requests and tasks",
    zh: "请选择接收被删除用户的分享、文件请求和任务的用户",
  },
  invalid_transfer_target: {
    status: 400,
    en: "Ownership can only go to another active user who may own shares",
    zh: "所有权只能转给另一位可拥有分享的有效用户",
  },
  invitation_invalid: {
    status: 404,
    en: "This invitation link is invalid, used or expired",
    zh: "此邀请链接无效、已使用或已过期",
  },
  invitation_not_found: { status: 404, en: "Invitation does not exist", zh: "邀请不存在" },
  session_not_found: { status: 404, en: "Session does not exist", zh: "会话不存在" },
  second_factor_required: {
    status: 401,
    en: "Enter the code from your authenticator app or a recovery code",
    zh: "请输入身份验证器应用中的验证码或恢复码",
  },
  invalid_second_factor_code: {
    status: 401,
    en: "The code is wrong or was already used",
    zh: "验证码错误或已被使用",
  },
  sign_in_challenge_invalid: {
    status: 401,
    en: "This sign-in has expired or was already completed; enter your password again",
    zh: "此次登录已过期或已完成，请重新输入密码",
  },
  totp_already_enabled: {
    status: 409,
    en: "Two-factor sign-in is already on; turn it off first",
    zh: "两步验证已开启，请先关闭",
  },
  password_needs_second_factor: {
    status: 401,
    en: "This account signs in with a second factor, so WebDAV does not take its password; use an app password (My account) or an API key as the password",
    zh: "此账户已开启两步验证，WebDAV 不接受其密码；请将应用专用密码（我的账户中创建）或 API 密钥用作密码",
  },
  second_factor_enrolment_required: {
    status: 403,
    en: "Administrators must use two-factor sign-in here: set up an authenticator app or a passkey in My account first",
    zh: "此处的管理员必须使用两步验证：请先在“我的账户”中设置身份验证器应用或通行密钥",
  },
  own_second_factor_required: {
    status: 400,
    en: "Turn on two-factor sign-in for your own account first, so that requiring it cannot lock you out",
    zh: "请先为您自己的账户开启两步验证，以免开启此要求后将自己锁在外面",
  },
  invalid_passkey: {
    status: 401,
    en: "The passkey could not be verified; try again or use another sign-in method",
    zh: "无法验证通行密钥，请重试或改用其他登录方式",
  },
  passkey_challenge_invalid: {
    status: 401,
    en: "This passkey request has expired or was already used; start again",
    zh: "此通行密钥请求已过期或已被使用，请重新开始",
  },
  passkey_not_found: { status: 404, en: "Passkey does not exist", zh: "通行密钥不存在" },
  passkey_already_registered: {
    status: 409,
    en: "This passkey is already registered",
    zh: "此通行密钥已注册",
  },
  totp_not_enabled: { status: 409, en: "Two-factor sign-in is not on", zh: "两步验证未开启" },
  totp_setup_missing: {
    status: 409,
    en: "Start setting up the authenticator app first",
    zh: "请先开始设置身份验证器应用",
  },
  grant_exceeded: {
    status: 403,
    en: "An API key cannot have rights its user lacks",
    zh: "API 密钥的权限不能超出其用户的权限",
    detail: true,
  },
  account_required: {
    status: 403,
    en: "Sign in with your account for this (an API key cannot do it)",
    zh: "此操作需要以账户登录（API 密钥不能执行）",
  },
  password_not_set: {
    status: 401,
    en: "This account signs in with single sign-on; it has no password until an administrator sets one",
    zh: "此账户通过单点登录登录；在管理员设置密码之前没有密码",
  },
  // Single sign-on (OpenID Connect)
  sso_not_configured: { status: 404, en: "Single sign-on is not set up", zh: "尚未设置单点登录" },
  sso_failed: {
    status: 502,
    en: "Single sign-on failed: the provider's answer could not be checked",
    zh: "单点登录失败：无法验证身份提供方的回应",
    detail: true,
  },
  sso_denied: {
    status: 401,
    en: "Sign-in was cancelled or refused at the provider",
    zh: "登录已在身份提供方处取消或被拒绝",
  },
  sso_state_invalid: {
    status: 400,
    en: "This sign-in attempt is invalid or expired; start again",
    zh: "此次登录无效或已过期，请重新开始",
  },
  sso_domain_not_allowed: {
    status: 403,
    en: "Your e-mail domain may not sign in here",
    zh: "你的电子邮件域名不允许在此登录",
  },
  sso_email_missing: {
    status: 403,
    en: "The provider gave no verified e-mail address",
    zh: "身份提供方未提供已验证的电子邮件地址",
  },
  sso_unknown_user: {
    status: 403,
    en: "No account here matches you; ask an administrator to create or invite you",
    zh: "此处没有与你匹配的账户，请联系管理员创建或邀请你",
  },
  sso_user_taken: {
    status: 409,
    en: "An account with your e-mail address is already linked to another sign-in",
    zh: "使用你的电子邮件地址的账户已关联到另一个登录方式",
  },
  api_key_taken: {
    status: 409,
    en: "Key already exists, choose another custom key",
    zh: "密钥已存在，请换一个自定义密钥",
  },
  api_key_name_taken: { status: 409, en: "Key name already exists", zh: "密钥名称已存在" },
  api_key_not_found: { status: 404, en: "Key does not exist", zh: "密钥不存在" },
  app_password_not_found: { status: 404, en: "App password does not exist", zh: "应用专用密码不存在" },
  app_password_limit: {
    status: 409,
    en: "An account has at most 50 app passwords; revoke one first",
    zh: "每个账户最多有 50 个应用专用密码，请先撤销一个",
  },
  thumbnail_busy: {
    status: 503,
    en: "Thumbnails are being made; try again shortly",
    zh: "正在生成缩略图，请稍后再试",
  },
  thumbnail_unsupported: { status: 415, en: "This file has no thumbnail", zh: "此文件没有缩略图" },
  image_too_large: { status: 422, en: "Image is too large for a thumbnail", zh: "图片过大，无法生成缩略图" },
  // Fetching URLs
  invalid_url: { status: 400, en: "Invalid URL format", zh: "URL 格式无效" },
  url_not_allowed: { status: 400, en: "This URL is not allowed", zh: "不允许访问此 URL" },
  url_unreachable: { status: 400, en: "Cannot access URL", zh: "无法访问 URL" },
  too_many_redirects: {
    status: 400,
    en: "Cannot access URL: too many redirects",
    zh: "无法访问 URL：重定向次数过多",
  },
  url_timeout: { status: 504, en: "Cannot access URL: timed out", zh: "无法访问 URL：超时" },
  upstream_error: { status: 502, en: "The server returned an error status", zh: "服务器返回错误状态" },
  // Anything else
  http_error: { status: 400, en: "HTTP error", zh: "HTTP 错误", detail: true },
  internal_error: { status: 500, en: "Internal server error", zh: "服务器内部错误" },
});

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_CATALOGUE, value);
}

export type MessageLanguage = "en" | "zh";

/** The preferred of English and Chinese in an Accept-Language header (highest q wins, then order). */
export function preferredLanguage(acceptLanguage: string | null | undefined): MessageLanguage {
  let best: { lang: MessageLanguage; q: number } | null = null;
  for (const part of (acceptLanguage ?? "").split(",")) {
    const [tag = "", ...params] = part.trim().toLowerCase().split(";");
    const primary = tag.split("-")[0];
    if (primary !== "en" && primary !== "zh") continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { lang: primary, q };
  }
  return best?.lang ?? "en";
}

/**
 * The message of an error answer: English keeps the thrower's own sentence (it
 * names the path, the limit, the field); Chinese gets the catalogue text.
 */
export function errorMessage(language: MessageLanguage, code: string, english: string): string {
  if (language !== "zh" || !isErrorCode(code)) return english;
  const text: ErrorText = ERROR_CATALOGUE[code];
  return text.detail && english !== text.en ? `${text.zh}: ${english}` : text.zh;
}

/** The error id of a JSON error answer, when it is one this version knows. */
export function errorCodeOf(body: unknown): ErrorCode | null {
  const id = body && typeof body === "object" ? (body as { error?: unknown }).error : undefined;
  return isErrorCode(id) ? id : null;
}
