/**
 * The only module that reads process.env. It validates every variable, applies
 * defaults and fails fast with a message naming the variable, so a bad deploy
 * stops at start-up instead of misbehaving later.
 */

import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { BlockList, isIP } from "node:net";
import path from "node:path";
import { type HostEntry, parseHostList } from "./lib/net/host-allow-list";

export type DatabaseConfig = { dialect: "sqlite"; file: string } | { dialect: "postgres"; url: string };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  /** 32-byte key material for HMAC signing, API-key peppering and credential encryption. */
  secretKey: Buffer;
  secretKeySource: "env" | "file";
  admin: { username: string | null; password: string | null };
  adminTokenTtlSeconds: number;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  corsOrigins: string[];
  trustProxy: boolean;
  /** CSP frame-ancestors sources of the web app: who may show it in a frame ("'none'" by default). */
  frameAncestors: string[];
  /** Directory of the built web app; null disables static serving. */
  webDistDir: string | null;
  /** Private hosts that user-given URLs may reach (URL upload, server fetch). */
  urlFetchAllow: HostEntry[];
  /** GET /metrics: off unless a bearer token or allowed networks are set. */
  metrics: { token: string | null; allow: BlockList | null };
  /** Private hosts storage (S3, WebDAV, SFTP, FTP) endpoints may point at. */
  storageEndpointAllow: HostEntry[];
  /** PEM certificates trusted, besides the system's, for storage over TLS (a NAS with its own CA); null: none. */
  storageCa: string | null;
  /** S3 objects above this many bytes are copied part by part (UploadPartCopy). */
  s3MultipartCopyAbove: number;
  /** This instance's name behind a load balancer, sent as X-ClipShare-Instance; null sends nothing. */
  instanceName: string | null;
  /** A running task not heard of for this long was abandoned by a dead instance and is taken over. */
  taskStaleSeconds: number;
  /** A front proxy sends LOCAL file bodies (http/offload.ts); null: ClipShare sends them. */
  downloadOffload: DownloadOffload | null;
  /** Bytes of thumbnails kept in DATA_DIR/thumbnails before the least recently used are removed. */
  thumbnailCacheBytes: number;
  /** A connection that neither sends nor takes a byte for this long (mid-body included) is closed. */
  bodyIdleTimeoutSeconds: number;
  /** Open connections one client address may hold; the one beyond is closed at once. */
  maxConnectionsPerIp: number;
}

/**
 * X-Accel-Redirect (nginx: an internal URI, `prefix` + the path under `root`)
 * or X-Sendfile (Apache, lighttpd: the absolute file path). Files outside
 * `root` are still sent by ClipShare.
 */
export interface DownloadOffload {
  mode: "x-accel-redirect" | "x-sendfile";
  root: string;
  prefix: string;
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

function parsePort(env: Env): number {
  const raw = env.PORT?.trim();
  if (!raw) return 8787;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer between 0 and 65535, got "${raw}"`);
  }
  return port;
}

/** Accepts plain seconds or a number with a unit: 30s, 15m, 12h, 7d. */
export function parseDuration(name: string, raw: string, minSeconds = 60): number {
  const match = /^(\d+)\s*([smhd]?)$/i.exec(raw.trim());
  if (!match) throw new ConfigError(`${name} must be a duration like 3600, 90m, 12h or 7d, got "${raw}"`);
  const value = Number(match[1]);
  const unit = (match[2] ?? "").toLowerCase();
  const factor = unit === "m" ? 60 : unit === "h" ? 3600 : unit === "d" ? 86400 : 1;
  const seconds = value * factor;
  if (seconds < minSeconds)
    throw new ConfigError(`${name} must be at least ${minSeconds} seconds, got "${raw}"`);
  return seconds;
}

/** A whole number from `min` up (MAX_CONNECTIONS_PER_IP). */
function parseCount(name: string, raw: string | undefined, fallback: number, min = 1): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value < min)
    throw new ConfigError(`${name} must be a whole number of at least ${min}, got "${raw}"`);
  return value;
}

/** Below this, a busy but healthy instance could miss its heartbeat and lose its task to another. */
const MIN_TASK_STALE_SECONDS = 3;

/** INSTANCE_NAME: a short label (letters, digits, `_ . -`) shown in a response header and task claims. */
function parseInstanceName(raw: string | undefined): string | null {
  const name = raw?.trim();
  if (!name) return null;
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name))
    throw new ConfigError(`INSTANCE_NAME may use letters, digits and _ . - (1-64 characters), got "${raw}"`);
  return name;
}

function parseBool(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw.trim() === "") return fallback;
  const v = raw.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off"].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function parseDatabase(env: Env, dataDir: string): DatabaseConfig {
  const url = env.DATABASE_URL?.trim();
  if (!url) return { dialect: "sqlite", file: path.join(dataDir, "clipshare.db") };
  if (/^postgres(ql)?:\/\//i.test(url)) return { dialect: "postgres", url };
  if (/^sqlite:/i.test(url)) {
    const file = url.replace(/^sqlite:(\/\/)?/i, "");
    if (!file)
      throw new ConfigError("DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/clipshare.db");
    return { dialect: "sqlite", file: path.resolve(file) };
  }
  throw new ConfigError(
    `DATABASE_URL must start with postgres://, postgresql:// or sqlite:, got "${url.split(":")[0]}:…"`,
  );
}

/** SECRET_KEY from the environment, else a key generated once into DATA_DIR/secret.key (mode 0600). */
function loadSecretKey(env: Env, dataDir: string): { key: Buffer; source: "env" | "file" } {
  const raw = env.SECRET_KEY?.trim();
  if (raw) {
    if (raw.length < 32) throw new ConfigError("SECRET_KEY must be at least 32 characters long");
    return { key: Buffer.from(raw, "utf8"), source: "env" };
  }
  const file = path.join(dataDir, "secret.key");
  if (existsSync(file)) {
    const stored = readFileSync(file, "utf8").trim();
    if (stored.length < 32) throw new ConfigError(`${file} is corrupt (too short); restore it or remove it`);
    return { key: Buffer.from(stored, "utf8"), source: "file" };
  }
  const generated = randomBytes(32).toString("base64url");
  writeFileSync(file, `${generated}\n`, { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return { key: Buffer.from(generated, "utf8"), source: "file" };
}

const FRAME_SOURCE = /^(?:'none'|'self'|(?:https?:\/\/)?(?:\*\.)?[A-Za-z0-9.-]+(?::\d{1,5})?)$/;

/**
 * FRAME_ANCESTORS: space-separated CSP sources allowed to frame the web app
 * (`self`, `https://intranet.example.com`). Only hosts and keywords are let
 * through, so the value can never break out of the header.
 */
function parseFrameAncestors(raw: string | undefined): string[] {
  const tokens = (raw ?? "")
    .split(/\s+/)
    .filter(Boolean)
    .map((t) => (/^'?(none|self)'?$/i.test(t) ? `'${t.replace(/'/g, "").toLowerCase()}'` : t));
  if (tokens.length === 0) return ["'none'"];
  for (const token of tokens) {
    if (!FRAME_SOURCE.test(token))
      throw new ConfigError(
        `FRAME_ANCESTORS must list origins like https://intranet.example.com, or none / self; got "${token}"`,
      );
  }
  if (tokens.includes("'none'") && tokens.length > 1)
    throw new ConfigError("FRAME_ANCESTORS: none cannot be combined with other sources");
  return tokens;
}

function findWebDist(env: Env): string | null {
  const explicit = env.WEB_DIST_DIR?.trim();
  if (explicit) return path.resolve(explicit);
  // Works both from source (server/src) and from the bundle (server/dist).
  const candidates = [
    path.resolve(import.meta.dirname, "../../web/dist"),
    path.resolve(process.cwd(), "web/dist"),
  ];
  return candidates.find((dir) => existsSync(path.join(dir, "index.html"))) ?? null;
}

function parseCaFile(raw: string | undefined): string | null {
  const file = raw?.trim();
  if (!file) return null;
  let pem: string;
  try {
    pem = readFileSync(file, "utf8");
  } catch (e) {
    throw new ConfigError(`STORAGE_CA_FILE: cannot read ${file} (${(e as Error).message})`);
  }
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) {
    throw new ConfigError(`STORAGE_CA_FILE: ${file} holds no PEM certificate`);
  }
  return pem;
}

function parseHosts(name: string, raw: string | undefined): HostEntry[] {
  try {
    return parseHostList(raw);
  } catch (e) {
    throw new ConfigError(`${name}: ${(e as Error).message}; use comma-separated host or host:port entries`);
  }
}

/** Comma-separated addresses or CIDR networks ("10.0.0.0/8, ::1"); null when unset. */
function parseNetworks(name: string, raw: string | undefined): BlockList | null {
  if (!raw?.trim()) return null;
  const list = new BlockList();
  for (const entry of raw
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [address = "", prefix] = entry.split("/");
    const family = isIP(address);
    const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
    if (!family || !Number.isInteger(bits) || bits < 0 || bits > (family === 6 ? 128 : 32))
      throw new ConfigError(`${name}: "${entry}" is not an address or CIDR network like 10.0.0.0/8`);
    list.addSubnet(address, bits, family === 6 ? "ipv6" : "ipv4");
  }
  return list;
}

/** Bytes, optionally with a binary unit: 6291456, 6M, 5G. */
function parseBytes(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const match = /^(\d+)\s*([kmgt]?)i?b?$/i.exec(raw.trim());
  if (!match) throw new ConfigError(`${name} must be a byte count like 6291456, 64M or 5G, got "${raw}"`);
  const power = " kmgt".indexOf((match[2] || " ").toLowerCase());
  const bytes = Number(match[1]) * 1024 ** power;
  if (bytes < 1) throw new ConfigError(`${name} must be positive, got "${raw}"`);
  return bytes;
}

function parseOffload(env: Env, dataDir: string): DownloadOffload | null {
  const mode = env.DOWNLOAD_OFFLOAD?.trim().toLowerCase() || "off";
  if (mode === "off") return null;
  if (mode !== "x-accel-redirect" && mode !== "x-sendfile")
    throw new ConfigError(
      `DOWNLOAD_OFFLOAD must be off, x-accel-redirect or x-sendfile, got "${env.DOWNLOAD_OFFLOAD}"`,
    );
  const prefix = env.DOWNLOAD_OFFLOAD_PREFIX?.trim() || "/_clipshare_files/";
  if (!/^\/[A-Za-z0-9._~\-/]*\/$/.test(prefix))
    throw new ConfigError(
      `DOWNLOAD_OFFLOAD_PREFIX must be a URI path starting and ending with /, got "${prefix}"`,
    );
  const root = path.resolve(env.DOWNLOAD_OFFLOAD_ROOT?.trim() || dataDir);
  return { mode, root, prefix };
}

const resolveDataDir = (env: Env) => path.resolve(env.DATA_DIR?.trim() || "./data");

/**
 * Where the database is, without loadConfig's side effects (creating DATA_DIR and the
 * secret key), so admin commands can tell a missing installation from an empty one.
 */
export function databaseConfig(env: Env = process.env): DatabaseConfig {
  return parseDatabase(env, resolveDataDir(env));
}

/** Whether a secret key is already set up (SECRET_KEY, or DATA_DIR/secret.key); loadConfig would make one. */
export function hasSecretKey(env: Env = process.env): boolean {
  return Boolean(env.SECRET_KEY?.trim()) || existsSync(path.join(resolveDataDir(env), "secret.key"));
}

export function loadConfig(env: Env = process.env): Config {
  const dataDir = resolveDataDir(env);
  try {
    // Owner-only: the database in it holds paste contents (main.ts also sets the umask).
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new ConfigError(`DATA_DIR "${dataDir}" cannot be created: ${(e as Error).message}`);
  }
  const logLevel = (env.LOG_LEVEL?.trim().toLowerCase() || "info") as Config["logLevel"];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${env.LOG_LEVEL}"`);
  }
  const adminUsername = env.ADMIN_USERNAME?.trim() || null;
  const adminPassword = env.ADMIN_PASSWORD || null;
  if (adminPassword !== null && adminPassword.length < 8) {
    throw new ConfigError("ADMIN_PASSWORD must be at least 8 characters long");
  }
  if (adminUsername !== null && !/^[A-Za-z0-9_.@-]{1,64}$/.test(adminUsername)) {
    throw new ConfigError("ADMIN_USERNAME may use letters, digits and _ . @ - (1-64 characters)");
  }
  const corsOrigins = (env.CORS_ORIGINS ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (origin !== "*" && !/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError(`CORS_ORIGINS entries must look like https://example.com, got "${origin}"`);
    }
  }
  const secret = loadSecretKey(env, dataDir);
  return {
    port: parsePort(env),
    host: env.HOST?.trim() || "0.0.0.0",
    dataDir,
    database: parseDatabase(env, dataDir),
    secretKey: secret.key,
    secretKeySource: secret.source,
    admin: { username: adminUsername, password: adminPassword },
    adminTokenTtlSeconds: env.ADMIN_TOKEN_TTL
      ? parseDuration("ADMIN_TOKEN_TTL", env.ADMIN_TOKEN_TTL)
      : 7 * 86400,
    logLevel,
    corsOrigins,
    trustProxy: parseBool("TRUST_PROXY", env.TRUST_PROXY, false),
    frameAncestors: parseFrameAncestors(env.FRAME_ANCESTORS),
    webDistDir: findWebDist(env),
    urlFetchAllow: parseHosts("URL_FETCH_ALLOW", env.URL_FETCH_ALLOW),
    metrics: {
      token: env.METRICS_TOKEN?.trim() || null,
      allow: parseNetworks("METRICS_ALLOW", env.METRICS_ALLOW),
    },
    storageEndpointAllow: parseHosts("STORAGE_ENDPOINT_ALLOW", env.STORAGE_ENDPOINT_ALLOW),
    storageCa: parseCaFile(env.STORAGE_CA_FILE),
    s3MultipartCopyAbove: parseBytes("S3_MULTIPART_COPY_ABOVE", env.S3_MULTIPART_COPY_ABOVE, 5 * 1024 ** 3),
    instanceName: parseInstanceName(env.INSTANCE_NAME),
    taskStaleSeconds: env.TASK_STALE_AFTER?.trim()
      ? parseDuration("TASK_STALE_AFTER", env.TASK_STALE_AFTER, MIN_TASK_STALE_SECONDS)
      : 60,
    downloadOffload: parseOffload(env, dataDir),
    thumbnailCacheBytes: parseBytes("THUMBNAIL_CACHE_SIZE", env.THUMBNAIL_CACHE_SIZE, 512 * 1024 ** 2),
    bodyIdleTimeoutSeconds: env.BODY_IDLE_TIMEOUT?.trim()
      ? parseDuration("BODY_IDLE_TIMEOUT", env.BODY_IDLE_TIMEOUT, 1)
      : 120,
    maxConnectionsPerIp: parseCount("MAX_CONNECTIONS_PER_IP", env.MAX_CONNECTIONS_PER_IP, 256),
  };
}
