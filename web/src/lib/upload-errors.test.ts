import type { ErrorCode } from "@clipshare/shared";
import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error";
import { cleanEtag, TransferError, UploadEngineError } from "./upload-engine/errors";
import {
  describeUploadError,
  describeUploadFailure,
  InvalidPresignError,
  isNetworkTransferError,
  UploadStepError,
} from "./upload-errors";

const http = (status: number, errorId: ErrorCode | null, serverMessage: string | null = null) =>
  new ApiError({ kind: "http", status, errorId, serverMessage });

describe("upload error texts", () => {
  it("transfer failures", () => {
    expect(describeUploadError(new TransferError("abort"), "transfer")).toEqual({
      scope: "upload",
      key: "cancelled",
    });
    expect(describeUploadError(new TransferError("network"), "transfer")).toEqual({
      scope: "upload",
      key: "network",
    });
    expect(describeUploadError(new TransferError("status", 403), "transfer")).toEqual({
      scope: "upload",
      key: "failedStatus",
      values: { status: 403 },
    });
    expect(describeUploadError(new TransferError("timeout"), "transfer")).toEqual({
      scope: "errors",
      key: "timeout",
    });
  });

  it("server answers: slug taken, too large, storage full, no permission", () => {
    expect(describeUploadError(http(409, "slug_taken", "Link suffix already in use"), "presign")).toEqual({
      scope: "upload",
      key: "slugTaken",
    });
    expect(describeUploadError(http(413, "content_too_large", "max 1 MB"), "server")).toEqual({
      scope: "upload",
      key: "tooLarge",
      values: { message: "max 1 MB" },
    });
    expect(describeUploadError(http(413, null), "server")).toEqual({
      scope: "errors",
      key: "contentTooLarge",
    });
    expect(
      describeUploadError(http(507, "insufficient_storage", "Insufficient storage space: …"), "commit"),
    ).toEqual({
      scope: "upload",
      key: "insufficientStorage",
      values: { message: "Insufficient storage space: …" },
    });
    // A message about capacity counts as a storage problem whatever the status.
    expect(
      describeUploadError(http(400, "bad_request", "exceeds remaining capacity"), "commit"),
    ).toMatchObject({
      key: "insufficientStorage",
    });
    expect(describeUploadError(http(403, "storage_config_forbidden", "API-key users …"), "presign")).toEqual({
      scope: "upload",
      key: "noConfigPermission",
    });
  });

  it("other presign failures read 'failed to get presigned URL: …'", () => {
    expect(describeUploadError(http(400, "validation_failed", "filename is required"), "presign")).toEqual({
      scope: "upload",
      key: "presignFailed",
      values: { message: "filename is required" },
    });
    expect(describeUploadError(new InvalidPresignError(), "presign")).toEqual({
      scope: "upload",
      key: "noValidData",
    });
  });

  it("everything else falls back to the app's error catalogue", () => {
    expect(describeUploadError(http(400, "bad_request", "Bad thing"), "commit")).toEqual({
      scope: "text",
      text: "Bad thing",
    });
    expect(describeUploadError(new ApiError({ kind: "network" }), "commit")).toEqual({
      scope: "upload",
      key: "network",
    });
    expect(describeUploadError(new ApiError({ kind: "abort" }), "presign")).toEqual({
      scope: "upload",
      key: "cancelled",
    });
    expect(describeUploadError(new Error("?"), "commit")).toEqual({ scope: "errors", key: "unknown" });
  });

  it("only a transfer without any answer is worth retrying through the server", () => {
    expect(isNetworkTransferError(new TransferError("network"))).toBe(true);
    expect(isNetworkTransferError(new TransferError("status", 500))).toBe(false);
    expect(isNetworkTransferError(new TransferError("abort"))).toBe(false);
    expect(isNetworkTransferError(new ApiError({ kind: "network" }))).toBe(false);
  });

  it("strips the quotes around an ETag", () => {
    expect(cleanEtag('"abc123"')).toBe("abc123");
    expect(cleanEtag('W/"abc"')).toBe("abc");
    expect(cleanEtag("plain")).toBe("plain");
    expect(cleanEtag('""')).toBeNull();
    expect(cleanEtag(null)).toBeNull();
  });

  it("names part failures and multipart start failures by their engine texts", () => {
    expect(describeUploadFailure(new UploadEngineError("http", 502))).toEqual({
      scope: "engine",
      key: "http",
      values: { status: 502 },
    });
    expect(describeUploadFailure(new UploadEngineError("timeout"))).toMatchObject({ key: "timeout" });
    expect(
      describeUploadFailure(
        new UploadStepError("multipartInit", http(400, "invalid_parts", "Too many parts")),
      ),
    ).toEqual({ scope: "engine", key: "multipartInitFailed", values: { message: "Too many parts" } });
  });
});
