import { describe, expect, it } from "vitest";
import { parseSystemSettings } from "./api/settings";
import { validateMaxUploadSize, validateProxyExpires } from "./settings-form-model";

describe("settings forms", () => {
  it("max upload size must be a whole number above 0", () => {
    expect(validateMaxUploadSize("0")).toEqual({ maxUploadSize: "invalid" });
    expect(validateMaxUploadSize("-5")).toEqual({ maxUploadSize: "invalid" });
    expect(validateMaxUploadSize("")).toEqual({ maxUploadSize: "invalid" });
    expect(validateMaxUploadSize("250")).toEqual({});
  });

  it("signature lifetime may be 0", () => {
    expect(validateProxyExpires("0")).toEqual({});
    expect(validateProxyExpires("-1")).toEqual({ expires: "invalid" });
  });

  it("parses the settings rows", () => {
    expect(
      parseSystemSettings([
        { key: "max_upload_size", value: "2" },
        { key: "max_upload_size_unit", value: "GB" },
        { key: "webdav_upload_mode", value: "multipart" },
      ]),
    ).toEqual({ maxUploadSize: 2, maxUploadSizeUnit: "GB", webdavUploadMode: "multipart" });
    expect(parseSystemSettings([])).toEqual({
      maxUploadSize: 100,
      maxUploadSizeUnit: "MB",
      webdavUploadMode: "direct",
    });
  });
});
