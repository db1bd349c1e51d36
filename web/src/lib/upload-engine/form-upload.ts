import { authorizationHeader, errorCodeOf } from "@clipshare/shared";
import { api, currentCredentials, reportAuthFailure } from "../api";
import { ApiError, classifyUnauthorized } from "../api-error";
import { transfer } from "./xhr-transfer";

/**
 * POSTs a multipart form with upload progress (through the server: /api/upload,
 * /api/fs/upload) and reads the JSON envelope the way the API client does,
 * including signing out on a rejected session.
 */
export async function postUploadForm<T>(
  path: string,
  form: FormData,
  options: {
    signal?: AbortSignal | undefined;
    onProgress?: ((loaded: number, total: number) => void) | undefined;
  },
): Promise<T> {
  const credentials = currentCredentials();
  const headers: Record<string, string> = { Accept: "application/json" };
  if (credentials) headers.Authorization = authorizationHeader(credentials);
  const language = typeof document === "undefined" ? "" : document.documentElement.lang;
  if (language) headers["Accept-Language"] = language;

  const response = await transfer({
    method: "POST",
    url: api.url(path),
    headers,
    body: form,
    signal: options.signal,
    onProgress: options.onProgress,
  });

  let envelope: { code?: unknown; message?: unknown; error?: unknown; data?: unknown } | null = null;
  try {
    envelope = response.text ? JSON.parse(response.text) : null;
  } catch {
    envelope = null;
  }
  const ok = response.status >= 200 && response.status < 300;
  const code = typeof envelope?.code === "number" ? envelope.code : response.status;
  if (ok && (code === 200 || code === 201)) {
    if (envelope?.data) return envelope.data as T;
    throw new ApiError({ kind: "invalid_response", reason: "invalidServerResponse" });
  }

  const errorId = errorCodeOf(envelope);
  const authFailure =
    response.status === 401
      ? classifyUnauthorized({ path, authType: credentials?.type ?? null, context: "default", errorId })
      : null;
  const error = new ApiError({
    kind: ok ? "envelope" : "http",
    status: ok ? code : response.status,
    errorId,
    serverMessage: typeof envelope?.message === "string" ? envelope.message : null,
    authFailure,
  });
  if (authFailure) reportAuthFailure(authFailure, error);
  throw error;
}
