import type { FileRequest } from "@clipshare/shared";
import { describe, expect, it } from "vitest";
import { editValuesOf, MiB, requestUpdateBody } from "./request-form-model";

const request: FileRequest = {
  id: "r1",
  slug: "s",
  url: "/r/s",
  title: "Photos",
  message: null,
  target_kind: "share",
  storage_config_id: null,
  folder_path: null,
  max_files: 5,
  max_file_bytes: 10 * MiB,
  max_total_bytes: null,
  allowed_types: ["image/*"],
  expires_at: null,
  has_password: true,
  show_received: false,
  status: "open",
  state: "open",
  reserved_files: 0,
  reserved_bytes: 0,
  created_by: "admin",
  owner_id: null,
  owner_name: null,
  created_at: "2026-12-01T00:00:00.000Z",
  updated_at: "2026-12-01T00:00:00.000Z",
};

describe("the request edit form", () => {
  it("sends nothing when nothing changed", () => {
    expect(requestUpdateBody(request, editValuesOf(request))).toEqual({});
  });

  it("sends the changed title, limits and types; an emptied limit is null", () => {
    const values = {
      ...editValuesOf(request),
      title: " Holiday ",
      maxFiles: "",
      maxTotalMb: "1.5",
      types: ".pdf, .png",
    };
    expect(requestUpdateBody(request, values)).toEqual({
      title: "Holiday",
      max_files: null,
      max_total_bytes: Math.round(1.5 * MiB),
      allowed_types: [".pdf", ".png"],
    });
  });

  it("a new expiry, a removed password and the received list", () => {
    const values = { ...editValuesOf(request), expiresIn: "24", clearPassword: true, showReceived: true };
    expect(requestUpdateBody(request, values)).toEqual({
      expires_in: 24,
      password: null,
      show_received: true,
    });
  });
});
