import type { FileRequest, UpdateFileRequestBody } from "@clipshare/shared";

export const LIST_KEY = ["file-requests"] as const;
export const MiB = 1024 * 1024;

/** What the edit form holds: text as typed ("" = no limit). */
export interface RequestEditValues {
  title: string;
  message: string;
  maxFiles: string;
  maxFileMb: string;
  maxTotalMb: string;
  types: string;
  /** "keep", or hours from now ("0" = never). */
  expiresIn: string;
  password: string;
  clearPassword: boolean;
  showReceived: boolean;
}

const mb = (bytes: number | null) => (bytes === null ? "" : String(Math.round((bytes / MiB) * 100) / 100));

export function editValuesOf(request: FileRequest): RequestEditValues {
  return {
    title: request.title,
    message: request.message ?? "",
    maxFiles: request.max_files === null ? "" : String(request.max_files),
    maxFileMb: mb(request.max_file_bytes),
    maxTotalMb: mb(request.max_total_bytes),
    types: (request.allowed_types ?? []).join(", "),
    expiresIn: "keep",
    password: "",
    clearPassword: false,
    showReceived: request.show_received,
  };
}

const limit = (text: string, scale = 1): number | null =>
  text.trim() === "" ? null : Math.round(Number(text) * scale);

/** The fields that changed, as the edit route takes them. */
export function requestUpdateBody(request: FileRequest, values: RequestEditValues): UpdateFileRequestBody {
  const body: UpdateFileRequestBody = {};
  if (values.title.trim() !== request.title) body.title = values.title.trim();
  if (values.message !== (request.message ?? "")) body.message = values.message || null;
  const maxFiles = limit(values.maxFiles);
  if (maxFiles !== request.max_files) body.max_files = maxFiles;
  const maxFile = limit(values.maxFileMb, MiB);
  if (maxFile !== request.max_file_bytes) body.max_file_bytes = maxFile;
  const maxTotal = limit(values.maxTotalMb, MiB);
  if (maxTotal !== request.max_total_bytes) body.max_total_bytes = maxTotal;
  const types = values.types
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (types.join(",") !== (request.allowed_types ?? []).join(","))
    body.allowed_types = types.length ? types : null;
  if (values.expiresIn !== "keep") body.expires_in = Number(values.expiresIn) || null;
  if (values.clearPassword) body.password = null;
  else if (values.password) body.password = values.password;
  if (values.showReceived !== request.show_received) body.show_received = values.showReceived;
  return body;
}
