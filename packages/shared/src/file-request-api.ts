import type { ApiClient } from "./api-client";
import type {
  FileRequest,
  FileRequestDetail,
  FileRequestList,
  PublicFileRequest,
  ReceivedFile,
  RequestUploadResume,
  RequestUploadStarted,
} from "./responses/file-requests";
import type { CreateFileRequestBody, UpdateFileRequestBody } from "./schemas/file-requests";

/** The header a visitor sends a request's unlock token in. */
export const FILE_REQUEST_TOKEN_HEADER = "X-File-Request-Token";

/** The visitor page of a request. */
export const fileRequestPagePath = (slug: string) => `/r/${encodeURIComponent(slug)}`;

/**
 * The file-request routes over one API client (the web app's and the CLI's):
 * management as the signed-in creator, the visitor's calls without credentials.
 */
export function fileRequestApi<O extends string>(client: ApiClient<O>) {
  const visitorPath = (slug: string) => `/public/requests/${encodeURIComponent(slug)}`;
  const asVisitor = (token: string | null, signal?: AbortSignal) => ({
    auth: "none" as const,
    headers: (token ? { [FILE_REQUEST_TOKEN_HEADER]: token } : {}) as Record<string, string>,
    ...(signal ? { signal } : {}),
  });
  return {
    list: (query: { limit?: number; offset?: number; search?: string } = {}) =>
      client.get<FileRequestList>("/requests", { query }),
    removeReceived: (id: string, uploadId: string) =>
      client.delete<null>(`/requests/${encodeURIComponent(id)}/uploads/${encodeURIComponent(uploadId)}`),
    detail: (id: string) => client.get<FileRequestDetail>(`/requests/${encodeURIComponent(id)}`),
    create: (body: CreateFileRequestBody) => client.post<FileRequest>("/requests", body),
    update: (id: string, body: UpdateFileRequestBody) =>
      client.put<FileRequest>(`/requests/${encodeURIComponent(id)}`, body),
    remove: (id: string) => client.delete<null>(`/requests/${encodeURIComponent(id)}`),

    visit: (slug: string, token: string | null) =>
      client.get<PublicFileRequest>(visitorPath(slug), asVisitor(token)),
    unlock: (slug: string, password: string) =>
      client.post<{ token: string; expires_in: number }>(
        `${visitorPath(slug)}/unlock`,
        { password },
        asVisitor(null),
      ),
    startUpload: (
      slug: string,
      token: string | null,
      body: {
        filename: string;
        size: number;
        part_size: number;
        part_count: number;
        mimetype?: string;
        uploader_name?: string;
        note?: string;
      },
      signal?: AbortSignal,
    ) => client.post<RequestUploadStarted>(`${visitorPath(slug)}/uploads`, body, asVisitor(token, signal)),
    resumeUpload: (slug: string, token: string | null, uploadId: string, signal?: AbortSignal) =>
      client.post<RequestUploadResume>(
        `${visitorPath(slug)}/uploads/${encodeURIComponent(uploadId)}/resume`,
        {},
        asVisitor(token, signal),
      ),
    completeUpload: (
      slug: string,
      token: string | null,
      uploadId: string,
      parts: Array<{ partNumber: number; etag: string }>,
      signal?: AbortSignal,
    ) =>
      client.post<ReceivedFile>(
        `${visitorPath(slug)}/uploads/${encodeURIComponent(uploadId)}/complete`,
        { parts },
        { ...asVisitor(token, signal), upload: true },
      ),
    abortUpload: (slug: string, token: string | null, uploadId: string) =>
      client.post<null>(
        `${visitorPath(slug)}/uploads/${encodeURIComponent(uploadId)}/abort`,
        {},
        asVisitor(token),
      ),
  };
}
