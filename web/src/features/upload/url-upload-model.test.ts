import { describe, expect, it } from "vitest";
import { urlUploadPercent } from "./url-upload-model";

describe("URL upload progress", () => {
  it("scales the download to 0-49 % and the upload to 50-99 %", () => {
    expect(urlUploadPercent("download", 0, 1000)).toBe(0);
    expect(urlUploadPercent("download", 500, 1000)).toBe(24);
    expect(urlUploadPercent("download", 1000, 1000)).toBe(49);
    expect(urlUploadPercent("upload", 0, 1000)).toBe(50);
    expect(urlUploadPercent("upload", 1000, 1000)).toBe(99);
    expect(urlUploadPercent("done", 0, null)).toBe(100);
  });

  it("stays at the phase's start while the size is unknown, and never passes its end", () => {
    expect(urlUploadPercent("download", 12345, null)).toBe(0);
    expect(urlUploadPercent("upload", 5, 0)).toBe(50);
    expect(urlUploadPercent("download", 2000, 1000)).toBe(49);
  });
});
