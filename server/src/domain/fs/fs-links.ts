/**
 * URLs to explorer files that work without credentials: presigned storage URLs
 * where the driver can sign (S3), signed URLs to our own proxy route where it
 * cannot (LOCAL), and the mount's public proxy (`web_proxy` and the
 * proxy-sign settings) with its signing rules.
 */

import type { FsFileLink, InlineStatusFree } from "@clipshare/shared";
import { ANONYMOUS } from "../../auth/principal";
import { AppError, notFound } from "../../errors";
import type { StorageEntry } from "../../storage/types";
import type { SettingsService } from "../settings/settings-service";
import { apiActor, type FsActor, isVisitor } from "./access";
import { FS_ERRORS } from "./fs-entry";
import type { LinkSigner } from "./link-signer";
import type { ResolvedPath } from "./mount-table";
import type { VirtualFileSystem } from "./vfs";
import { displayPath, normalizeVirtualPath, vbasename } from "./vpath";

/** Lifetime of signed links to LOCAL files when the caller names none. */
const DEFAULT_LINK_SECONDS = 3600;
const MAX_LINK_SECONDS = 7 * 86400;

export interface FileUrls {
  preview_url: string;
  download_url: string;
}

/** `/api/p` + the path with each segment encoded. */
export function proxyPath(path: string): string {
  return `/api/p${path.split("/").map(encodeURIComponent).join("/")}`;
}

export class FsLinks {
  constructor(
    private readonly vfs: VirtualFileSystem,
    private readonly settings: SettingsService,
    private readonly signer: LinkSigner,
  ) {}

  /**
   * Preview and download URLs for fs/get. A visitor without credentials gets
   * links to the server itself on every storage (visitor-signed), so that
   * its downloads are limited and logged.
   */
  async urlsFor(
    target: ResolvedPath,
    entry: StorageEntry,
    origin: string,
    visitor = false,
  ): Promise<FileUrls> {
    if (target.row.web_proxy === 1 && !visitor) {
      const sign = await this.proxySignFor(target);
      const query = (download: boolean) => {
        const params = [download ? "download=true" : null, sign ? `sign=${encodeURIComponent(sign)}` : null];
        const text = params.filter(Boolean).join("&");
        return text ? `?${text}` : "";
      };
      const base = `${origin}${proxyPath(target.path)}`;
      return { preview_url: `${base}${query(false)}`, download_url: `${base}${query(true)}` };
    }
    const seconds = Math.min(target.config.signature_expires_in || DEFAULT_LINK_SECONDS, MAX_LINK_SECONDS);
    return {
      preview_url: await this.cachedLink(target, entry, "inline", seconds, origin, visitor),
      download_url: await this.cachedLink(target, entry, "attachment", seconds, origin, visitor),
    };
  }

  /** GET /fs/file-link: a time-limited URL to one file. */
  async fileLink(
    actor: FsActor,
    input: string,
    options: { forceDownload: boolean; expiresIn?: number | undefined },
    origin: string,
  ): Promise<InlineStatusFree<FsFileLink>> {
    const { target, entry } = await this.vfs.openFile(actor, input);
    const seconds = Math.min(
      options.expiresIn ?? (target.config.signature_expires_in || DEFAULT_LINK_SECONDS),
      MAX_LINK_SECONDS,
    );
    const disposition = options.forceDownload ? "attachment" : "inline";
    const visitor = isVisitor(actor.principal);
    const { url, expiresAt } = await this.signedUrl(target, entry, disposition, seconds, origin, visitor);
    return {
      presignedUrl: url,
      name: vbasename(target.path),
      expiresIn: seconds,
      expiresAt: new Date(expiresAt).toISOString(),
      forceDownload: options.forceDownload,
    };
  }

  /**
   * A URL that reads the file for `seconds`: presigned by the storage, or signed for our proxy
   * route; for a visitor always our route, under the visitor signature.
   */
  async signedUrl(
    target: ResolvedPath,
    entry: StorageEntry,
    disposition: "inline" | "attachment",
    seconds: number,
    origin: string,
    visitor = false,
  ): Promise<{ url: string; expiresAt: number }> {
    const driver = target.driver;
    if (driver.presignRead && !visitor) {
      const signed = await driver.presignRead(target.subPath, {
        expiresIn: seconds,
        disposition,
        filename: vbasename(target.path),
        ...(entry.contentType ? { contentType: entry.contentType } : {}),
      });
      return { url: signed.url, expiresAt: signed.expiresAt.getTime() };
    }
    const expiresAt = expiresAfter(seconds);
    const sign = visitor
      ? this.signer.visitorLinkSign(target.path, expiresAt)
      : this.signer.linkSign(target.path, expiresAt);
    const download = disposition === "attachment" ? "download=true&" : "";
    return {
      url: `${origin}${proxyPath(target.path)}?${download}sign=${encodeURIComponent(sign)}`,
      expiresAt: expiresAt * 1000,
    };
  }

  /**
   * Access to GET /api/p/<path>: a valid file-link signature opens any active
   * mount; otherwise the mount must have web proxy on, and when the global
   * sign-all flag or the mount's signing flag is set, a valid proxy signature.
   * A visitor's link opens what is public still, as for the visitor who made
   * it (`visitor`: the download is then that visitor's, to count and log).
   */
  async openProxied(
    rawPath: string,
    sign: string | undefined,
  ): Promise<{ target: ResolvedPath; entry: StorageEntry; visitor: boolean }> {
    const path = normalizeVirtualPath(rawPath);
    if (sign && this.signer.isVisitorSignature(sign)) {
      const check = this.signer.verifyVisitorLink(path, sign);
      if (check !== "ok") throw new AppError(401, check, `Signature verification failed: ${check}`);
      // Its folder passes were checked when it was signed.
      return { ...(await this.vfs.openFile(apiActor(ANONYMOUS, "queued"), path)), visitor: true };
    }
    // Anyone holding the URL may read: bounded by the storage root, not by whoever signed it,
    // and by the folder rules as they apply to visitors: hidden stays hidden, and a
    // password-protected folder needs a URL signed for someone who opened it.
    const rules = await this.vfs.mounts.folderRules();
    if (!(await this.vfs.visiblePath(null, rules, path))) throw FS_ERRORS.fileNotFound();
    const lock = rules.lockFor(path);
    if (!sign && lock) throw FS_ERRORS.locked(displayPath(lock.path, true));
    const target = await this.vfs.mounts.resolve(path, null);
    if (sign && this.signer.isLinkSignature(sign)) {
      const check = this.signer.verifyLink(path, sign);
      if (check !== "ok") throw new AppError(401, check, `Signature verification failed: ${check}`);
      if (!target) throw notFound("Mount does not exist", "mount_not_found");
    } else {
      if (target?.row.web_proxy !== 1) throw notFound("Mount does not exist", "mount_not_found");
      const settings = await this.settings.getAll();
      if (settings.proxy_sign_all || target.row.enable_sign === 1) {
        if (!sign) {
          const why = settings.proxy_sign_all ? "Global sign-all enabled" : "Storage signing enabled";
          throw new AppError(401, "signature_required", `This file requires signed access (${why})`);
        }
        const check = this.signer.verifyProxy(path, sign);
        if (check !== "ok") throw new AppError(401, check, `Signature verification failed: ${check}`);
      }
    }
    const entry = await this.vfs.statIn(target);
    if (!entry || entry.isDirectory) throw FS_ERRORS.fileNotFound();
    return { target, entry, visitor: false };
  }

  /** The proxy signature for a mount's URLs, or null when none is required. */
  async proxySignFor(target: ResolvedPath): Promise<string | null> {
    const settings = await this.settings.getAll();
    if (!settings.proxy_sign_all && target.row.enable_sign !== 1) return null;
    const seconds = target.row.sign_expires ?? settings.proxy_sign_expires;
    const expiresAt = seconds > 0 ? expiresAfter(seconds) : 0;
    return this.signer.proxySign(target.path, expiresAt);
  }

  /** Presigned URLs are reused for up to the mount's cache TTL, and never past half their lifetime. */
  private async cachedLink(
    target: ResolvedPath,
    entry: StorageEntry,
    disposition: "inline" | "attachment",
    seconds: number,
    origin: string,
    visitor: boolean,
  ): Promise<string> {
    const urls = this.vfs.caches.urls;
    const ttlMs = Math.min(target.row.cache_ttl * 1000, (seconds * 1000) / 2);
    const key = `${disposition}:${origin}:${visitor ? "visitor" : ""}`;
    const useCache = ttlMs > 0 && this.vfs.caches.usable;
    const hit = useCache ? urls.get(target.row.id, target.subPath, key) : undefined;
    if (hit && hit.expiresAt - Date.now() > (seconds * 1000) / 2) return hit.url;
    const fresh = await this.signedUrl(target, entry, disposition, seconds, origin, visitor);
    if (useCache) urls.set(target.row.id, target.subPath, key, fresh, ttlMs);
    return fresh.url;
  }
}

/** Unix seconds at least `seconds` from now: rounding up, so a short lifetime is never cut to nothing. */
function expiresAfter(seconds: number): number {
  return Math.ceil(Date.now() / 1000) + seconds;
}
