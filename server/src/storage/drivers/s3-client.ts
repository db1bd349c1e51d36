import { createHash } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { S3Client } from "@aws-sdk/client-s3";
import { isAppError } from "../../errors";
import { normalizeEndpoint } from "../endpoint";
import {
  invalidPart,
  invalidPath,
  storageAccessDenied,
  storageFailure,
  storageNotFound,
  storageUnreachable,
  uploadNotFound,
} from "../errors";
import { sdk } from "./s3-sdk";

export interface S3DriverConfig {
  /** e.g. `https://s3.eu-west-1.amazonaws.com`, `http://127.0.0.1:8080`; a bare host gets https. Empty means AWS. */
  endpoint: string;
  /** Empty means us-east-1 (R2 accepts "auto"). */
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key`; most self-hosted services need it. */
  pathStyle: boolean;
  /** Key prefix every virtual path lives under, e.g. `uploads` (slashes around it are ignored). */
  defaultFolder?: string | null;
  /** Public base URL (CDN or bucket domain) for `publicUrl`, e.g. `https://files.example.com`. */
  customHost?: string | null;
  /** Default lifetime of presigned URLs in seconds (3600 when unset). */
  signatureExpiresIn?: number | null;
  /** Provider label from the config, e.g. "Backblaze B2"; selects provider quirks. */
  providerType?: string | null;
  /**
   * Name resolution for connections to the endpoint; the storage config
   * service passes one that refuses private addresses unless allow-listed.
   */
  lookup?: LookupFunction;
  /** Knobs for very large server-side copies; the defaults follow S3's limits. */
  tuning?: {
    /** Objects above this many bytes are copied part by part (S3 refuses a single CopyObject above 5 GiB). */
    singleCopyLimit?: number;
    /** Part size for those copies. */
    copyPartSize?: number;
    /** Part size for streamed writes of unknown length (min 5 MiB). */
    uploadPartSize?: number;
  };
}

export const B2_PROVIDER = "Backblaze B2";

/**
 * Extra headers a browser must send with a presigned PUT for this provider.
 * B2's S3 layer wants a SHA-1 of the body unless told not to verify, and its
 * CORS handling expects X-Requested-With. Neither header is signed, so adding
 * them does not break the presigned signature.
 */
export function uploadHeadersFor(providerType: string | null | undefined): Record<string, string> {
  if (providerType === B2_PROVIDER) {
    return { "X-Bz-Content-Sha1": "do_not_verify", "X-Requested-With": "XMLHttpRequest" };
  }
  return {};
}

export function createS3Client(config: S3DriverConfig): S3Client {
  const client = new sdk.S3Client({
    endpoint: normalizeEndpoint(config.endpoint),
    region: config.region || "us-east-1",
    forcePathStyle: config.pathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // The SDK's newer default checksums (aws-chunked bodies, CRC32 headers) are rejected by
    // many S3-compatible services, Swift and B2 among them.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // The SDK never follows redirects; these agents only decide which address a connection may use.
    ...(config.lookup
      ? {
          requestHandler: {
            httpAgent: new http.Agent({ keepAlive: true, maxSockets: 50, lookup: config.lookup }),
            httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 50, lookup: config.lookup }),
          },
        }
      : {}),
  });
  client.middlewareStack.add(
    (next, context) => async (args) => {
      // DeleteObjects must carry Content-MD5 on Swift (and older S3 APIs); with WHEN_REQUIRED the SDK
      // sends a CRC32 header instead. Done at "build" so the MD5 is signed; at finalizeRequest the
      // signature would no longer match.
      const request = args.request as { headers?: Record<string, string>; body?: unknown } | undefined;
      const body = request?.body;
      if (
        context.commandName === "DeleteObjectsCommand" &&
        request?.headers &&
        (typeof body === "string" || body instanceof Uint8Array)
      ) {
        for (const name of Object.keys(request.headers)) {
          const lower = name.toLowerCase();
          if (lower.startsWith("x-amz-checksum-") || lower === "x-amz-sdk-checksum-algorithm") {
            delete request.headers[name];
          }
        }
        request.headers["content-md5"] = createHash("md5").update(body).digest("base64");
      }
      return next(args);
    },
    { step: "build", priority: "low", name: "clipshareDeleteObjectsContentMd5" },
  );
  return client;
}

/**
 * Listings are requested with `EncodingType: "url"`: XML cannot carry control
 * characters, and Swift fails the whole listing on such a key otherwise. AWS
 * encodes a space as "+", Swift as "%20"; both encode a literal "+" as "%2B".
 */
export function decodeListedKey(key: string): string {
  return decodeURIComponent(key.replace(/\+/g, " "));
}

/** HTTP status and error code of an SDK failure, whatever shape it came in. */
export function s3ErrorInfo(e: unknown): { status: number | undefined; code: string } {
  if (e instanceof sdk.S3ServiceException) return { status: e.$metadata?.httpStatusCode, code: e.name };
  const meta = (e as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata;
  return { status: meta?.httpStatusCode, code: (e as Error | null)?.name ?? "Error" };
}

export function isS3NotFound(e: unknown): boolean {
  const { status, code } = s3ErrorInfo(e);
  return status === 404 || code === "NotFound" || code === "NoSuchKey";
}

/** Translates SDK errors into the storage vocabulary; anything unrecognised keeps the backend's words. */
export function mapS3Error(e: unknown, path: string, uploadId?: string): unknown {
  if (isAppError(e)) return e;
  const { status, code } = s3ErrorInfo(e);
  if (code === "NoSuchUpload") return uploadNotFound(uploadId ?? "");
  if (code === "NoSuchBucket") return storageFailure("The storage bucket does not exist");
  if (isS3NotFound(e)) return storageNotFound(path);
  // The storage's folder counts toward S3's 1024-byte key limit, so a path within ClipShare's own limit can still be too long here.
  if (code === "KeyTooLongError") return invalidPath(`Path is too long for this storage: ${path}`);
  if (code === "InvalidPart" || code === "InvalidPartOrder" || code === "EntityTooSmall") {
    return invalidPart((e as Error).message || code);
  }
  if (
    status === 403 ||
    code === "AccessDenied" ||
    code === "SignatureDoesNotMatch" ||
    code === "InvalidAccessKeyId"
  ) {
    return storageAccessDenied(`Storage refused the request (${code})`);
  }
  const backend = e instanceof Error ? e.message || code : String(e);
  const netCode = (e as { code?: unknown } | null)?.code;
  if (status === undefined && (NETWORK_FAILURES.has(code) || NETWORK_FAILURES.has(String(netCode))))
    return storageUnreachable({ backend, code: String(netCode ?? code) });
  return storageFailure(`The storage answered with an error (${status ? `HTTP ${status}, ` : ""}${code})`, {
    backend,
    status,
    code,
  });
}

/** Failures before any answer: the endpoint is down, unreachable or too slow. */
const NETWORK_FAILURES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "TimeoutError",
  "RequestTimeout",
]);
