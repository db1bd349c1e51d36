import { MASKED_SECRET } from "@clipshare/shared";
import { describe, expect, it } from "vitest";
import type { StorageConfig } from "./api/storage-configs";
import {
  applyProvider,
  applyRegion,
  applyStorageType,
  checkHint,
  checkState,
  emptyStorageConfigForm,
  formFromConfig,
  remotePresetsFor,
  storageConfigBody,
  suggestedEndpoint,
  validateStorageConfigForm,
} from "./storage-config-form-model";

const s3Form = () => ({
  ...emptyStorageConfigForm("S3"),
  name: "Bucket",
  endpointUrl: "https://s3.example.com",
  bucketName: "files",
  accessKeyId: "AKIAEXAMPLE1234",
  secretAccessKey: "s3cr3t",
});

const savedConfig: StorageConfig = {
  id: "c1",
  name: "B2",
  storage_type: "S3",
  provider_type: "Backblaze B2",
  endpoint_url: "https://s3.us-west-004.backblazeb2.com",
  bucket_name: "bkt",
  region: "us-west-004",
  access_key_id: "0041***abcd",
  secret_access_key: MASKED_SECRET,
  path_style: false,
  default_folder: "share",
  root_path: null,
  custom_host: null,
  host_key: null,
  signature_expires_in: 3600,
  is_public: true,
  is_default: false,
  total_storage_bytes: 10 * 1024 ** 3,
  created_at: "",
  updated_at: "",
  last_used: null,
};

describe("provider presets", () => {
  it("Backblaze B2 fills region, endpoint and virtual-host style", () => {
    const v = applyProvider(emptyStorageConfigForm("S3"), "Backblaze B2");
    expect(v).toMatchObject({
      providerType: "Backblaze B2",
      region: "us-west-004",
      endpointUrl: "https://s3.us-west-004.backblazeb2.com",
      pathStyle: false,
    });
    // A new region moves the derived endpoint along.
    expect(applyRegion(v, "eu-central-003").endpointUrl).toBe("https://s3.eu-central-003.backblazeb2.com");
  });

  it("keeps what the user typed", () => {
    const typed = {
      ...emptyStorageConfigForm("S3"),
      endpointUrl: "https://minio.local:9000",
      region: "home",
    };
    const v = applyProvider(typed, "AWS S3");
    expect(v).toMatchObject({ endpointUrl: "https://minio.local:9000", region: "home", pathStyle: false });
    expect(applyRegion(v, "elsewhere").endpointUrl).toBe("https://minio.local:9000");
  });

  it("R2 needs the account id, so it suggests no endpoint; others need path style", () => {
    expect(suggestedEndpoint("Cloudflare R2", "auto")).toBe("");
    expect(applyProvider(emptyStorageConfigForm("S3"), "Cloudflare R2")).toMatchObject({
      region: "auto",
      endpointUrl: "",
    });
    expect(
      applyProvider(applyProvider(emptyStorageConfigForm("S3"), "AWS S3"), "Other S3 Compatible"),
    ).toMatchObject({
      pathStyle: true,
      endpointUrl: "",
    });
  });
});

describe("storage config bodies", () => {
  it("creates an S3 config with every field", () => {
    expect(
      storageConfigBody({ ...s3Form(), quotaAmount: "2", quotaUnit: "GB", defaultFolder: "/a/b/" }, "create"),
    ).toEqual({
      name: "Bucket",
      storage_type: "S3",
      is_public: false,
      total_storage_bytes: 2 * 1024 ** 3,
      provider_type: "Other S3 Compatible",
      endpoint_url: "https://s3.example.com",
      bucket_name: "files",
      region: "us-east-1",
      path_style: true,
      default_folder: "a/b",
      custom_host: null,
      signature_expires_in: 3600,
      access_key_id: "AKIAEXAMPLE1234",
      secret_access_key: "s3cr3t",
    });
  });

  it("creates a LOCAL config with its root path only", () => {
    expect(
      storageConfigBody(
        { ...emptyStorageConfigForm("LOCAL"), name: "Disk", rootPath: " /srv/files ", isPublic: true },
        "create",
      ),
    ).toEqual({
      name: "Disk",
      storage_type: "LOCAL",
      is_public: true,
      total_storage_bytes: null,
      root_path: "/srv/files",
    });
  });

  it("an edit leaves the masked secrets out unless new ones were typed", () => {
    const initial = formFromConfig(savedConfig);
    expect(initial).toMatchObject({
      accessKeyId: "0041***abcd",
      secretAccessKey: MASKED_SECRET,
      quotaAmount: "10",
      quotaUnit: "GB",
    });
    const body = storageConfigBody({ ...initial, name: "B2 renamed" }, "edit", initial);
    expect(body).not.toHaveProperty("access_key_id");
    expect(body).not.toHaveProperty("secret_access_key");
    expect(body).not.toHaveProperty("storage_type");
    expect(body.name).toBe("B2 renamed");
    const rotated = storageConfigBody({ ...initial, secretAccessKey: "new-secret" }, "edit", initial);
    expect(rotated.secret_access_key).toBe("new-secret");
    expect(rotated).not.toHaveProperty("access_key_id");
  });
});

describe("storage config validation", () => {
  it("accepts a complete form", () => {
    expect(validateStorageConfigForm(s3Form(), "create")).toEqual({});
    expect(
      validateStorageConfigForm(
        { ...emptyStorageConfigForm("LOCAL"), name: "D", rootPath: "/data" },
        "create",
      ),
    ).toEqual({});
  });

  it("requires what S3 needs, and credentials only when creating", () => {
    expect(validateStorageConfigForm(emptyStorageConfigForm("S3"), "create")).toEqual({
      name: "required",
      endpointUrl: "required",
      bucketName: "required",
      accessKeyId: "required",
      secretAccessKey: "required",
    });
    const initial = formFromConfig(savedConfig);
    expect(validateStorageConfigForm(initial, "edit", initial)).toEqual({});
    expect(validateStorageConfigForm({ ...initial, secretAccessKey: "" }, "edit", initial)).toEqual({
      secretAccessKey: "required",
    });
  });

  it("checks formats as the server does", () => {
    expect(validateStorageConfigForm({ ...s3Form(), endpointUrl: "ftp://x" }, "create")).toEqual({
      endpointUrl: "invalid",
    });
    expect(validateStorageConfigForm({ ...s3Form(), customHost: "cdn.example.com" }, "create")).toEqual({
      customHost: "invalid",
    });
    expect(validateStorageConfigForm({ ...s3Form(), signatureExpiresIn: "30" }, "create")).toEqual({
      signatureExpiresIn: "invalid",
    });
    expect(validateStorageConfigForm({ ...s3Form(), defaultFolder: "a/../b" }, "create")).toEqual({
      defaultFolder: "invalid",
    });
    expect(validateStorageConfigForm({ ...s3Form(), quotaAmount: "-1" }, "create")).toEqual({
      quotaAmount: "invalid",
    });
    expect(
      validateStorageConfigForm(
        { ...emptyStorageConfigForm("LOCAL"), name: "D", rootPath: "relative/dir" },
        "create",
      ),
    ).toEqual({ rootPath: "invalid" });
  });
});

describe("test results", () => {
  const ok = { success: true, error: null, note: "", durationMs: 3 };
  const bad = { success: false, error: "denied", note: "", durationMs: 3 };
  it("hints for failed checks", () => {
    expect(checkHint("write", bad, "S3")).toBe("credentials");
    expect(checkHint("write", bad, "LOCAL")).toBe("localPath");
    expect(checkHint("cors", bad, "S3")).toBe("cors");
    expect(checkHint("presign", bad, "S3")).toBe("presign");
    expect(checkHint("list", ok, "S3")).toBeNull();
    expect(checkHint("cors", { ...ok, exposesEtag: false }, "S3")).toBe("exposeEtag");
    expect(checkHint("cors", { ...ok, skipped: true }, "LOCAL")).toBeNull();
  });
  it("states", () => {
    expect(checkState(ok)).toBe("passed");
    expect(checkState(bad)).toBe("failed");
    expect(checkState({ ...ok, skipped: true })).toBe("skipped");
    expect(checkState(undefined)).toBe("missing");
  });

  it("asks a WebDAV, SFTP or FTP config for address, login and folder, with its own URL scheme", () => {
    const sftp = {
      ...emptyStorageConfigForm("SFTP"),
      name: "Box",
      endpointUrl: "sftp://u1.your-storagebox.de:23",
      accessKeyId: "u1",
      secretAccessKey: "pw",
      defaultFolder: "/clipshare/",
      remotePreset: "Hetzner Storage Box" as const,
    };
    expect(validateStorageConfigForm(sftp, "create")).toEqual({});
    expect(storageConfigBody(sftp, "create")).toEqual({
      name: "Box",
      storage_type: "SFTP",
      is_public: false,
      total_storage_bytes: null,
      provider_type: "Hetzner Storage Box",
      endpoint_url: "sftp://u1.your-storagebox.de:23",
      default_folder: "clipshare",
      host_key: null,
      access_key_id: "u1",
      secret_access_key: "pw",
    });
    expect(validateStorageConfigForm({ ...sftp, endpointUrl: "https://x" }, "create")).toEqual({
      endpointUrl: "invalid",
    });
    expect(remotePresetsFor("WEBDAV")).toContain("Nextcloud");
    expect(applyStorageType(emptyStorageConfigForm("S3"), "FTP").remotePreset).toBe("Other FTP");
  });
});

describe("SFTP host key", () => {
  const sftp = (hostKey: string) => ({
    ...emptyStorageConfigForm("SFTP"),
    name: "Box",
    endpointUrl: "sftp://u1.your-storagebox.de:23",
    accessKeyId: "u1",
    secretAccessKey: "pw",
    hostKey,
  });
  const key = `SHA256:${"A".repeat(43)}`;

  it("is sent for SFTP (empty = not pinned) and checked like the server checks it", () => {
    expect(storageConfigBody(sftp(key), "create").host_key).toBe(key);
    expect(storageConfigBody(sftp(" "), "create").host_key).toBeNull();
    expect(validateStorageConfigForm(sftp(key), "create")).toEqual({});
    expect(validateStorageConfigForm(sftp("SHA256:short"), "create")).toEqual({ hostKey: "invalid" });
  });

  it("is not sent for other types", () => {
    const webdav = { ...sftp(key), storageType: "WEBDAV" as const, endpointUrl: "https://dav.example.com/" };
    expect(storageConfigBody(webdav, "create")).not.toHaveProperty("host_key");
  });
});
