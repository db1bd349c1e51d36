import type {
  CreatedPaste,
  Pagination,
  PasteDetail,
  PasteListRow,
  PasteVisit,
  ShareState,
} from "@clipshare/shared";
import { api } from "../api";

/** Calls of the paste API; the answers' types are the server's wire contract. */

export type { CreatedPaste, Pagination, PasteDetail, PasteListRow as PasteRow, ShareState as PasteState };

/** data of GET /api/paste/:slug and POST /api/paste/:slug. */
export type PasteView = PasteVisit;

/** Body of POST /api/paste. */
export interface CreatePasteBody {
  content: string;
  remark?: string;
  slug?: string;
  password?: string;
  /** ISO time, or null for "never". */
  expires_at?: string | null;
  /** 0 = unlimited. */
  max_views?: number;
  /** `content` is an end-to-end encrypted stream; its key stays in the link. */
  encrypted?: boolean;
  /** Visits are counted but not written to the share's access log. */
  no_log?: boolean;
}

export interface PasteListQuery {
  page: number;
  limit: number;
  search?: string;
  /** true: only expired or used up; false: only live ones. */
  expired?: boolean;
  /** Administrators: only this user's pastes. */
  owner_id?: string;
}

export interface PasteListPage {
  items: PasteListRow[];
  pagination: Pagination;
}

/** Body of PUT /api/pastes/:idOrSlug; only the fields to change. */
export interface UpdatePasteBody {
  content?: string;
  remark?: string;
  password?: string;
  clear_password?: boolean;
  expires_at?: string | null;
  max_views?: number;
  /** "" asks for a new random slug. */
  new_slug?: string;
}

const enc = encodeURIComponent;

function readPagination(value: unknown, fallback: PasteListQuery, count: number): Pagination {
  const p = (value && typeof value === "object" ? value : {}) as Partial<Pagination>;
  const limit = typeof p.limit === "number" ? p.limit : fallback.limit;
  const total = typeof p.total === "number" ? p.total : count;
  return {
    total,
    limit,
    offset: typeof p.offset === "number" ? p.offset : (fallback.page - 1) * limit,
    page: typeof p.page === "number" ? p.page : fallback.page,
    totalPages: typeof p.totalPages === "number" ? p.totalPages : Math.max(1, Math.ceil(total / limit)),
    hasMore: typeof p.hasMore === "boolean" ? p.hasMore : false,
  };
}

export const pastesApi = {
  create: (body: CreatePasteBody) => api.post<CreatedPaste>("/paste", body, { offline: "paste-create" }),

  /** Never queued offline: the key lives only in the link the answer completes. */
  createEncrypted: (body: CreatePasteBody) => api.post<CreatedPaste>("/paste", body),

  /** Counts a view for visitors: call it only when the content is about to be shown. */
  view: (slug: string, signal?: AbortSignal) => api.get<PasteVisit>(`/paste/${enc(slug)}`, { signal }),

  unlock: (slug: string, password: string) =>
    api.post<PasteVisit>(`/paste/${enc(slug)}`, { password }, { context: "password" }),

  async list(query: PasteListQuery, signal?: AbortSignal): Promise<PasteListPage> {
    const res = await api.request<PasteListRow[]>("/pastes", {
      signal,
      query: {
        page: query.page,
        limit: query.limit,
        search: query.search || undefined,
        expired: query.expired === undefined ? undefined : String(query.expired),
        owner_id: query.owner_id || undefined,
      },
    });
    const items = Array.isArray(res.data) ? res.data : [];
    return { items, pagination: readPagination(res.envelope?.pagination, query, items.length) };
  },

  get: (id: string, signal?: AbortSignal) => api.get<PasteDetail>(`/pastes/${enc(id)}`, { signal }),

  update: (idOrSlug: string, body: UpdatePasteBody) =>
    api.put<PasteListRow>(`/pastes/${enc(idOrSlug)}`, body, { offline: "paste-update" }),

  batchDelete: async (ids: string[]) =>
    (
      await api.delete<{ deleted: number }>(
        "/pastes/batch-delete",
        { ids },
        { offline: "paste-batch-delete" },
      )
    ).deleted,

  /** The admin clears everyone's; a key clears its own. */
  clearExpired: async (asAdmin: boolean) =>
    (
      await api.post<{ cleared: number }>(
        asAdmin ? "/admin/pastes/clear-expired" : "/pastes/clear-expired",
        asAdmin ? undefined : { clearExpired: true },
        { offline: "paste-clear-expired" },
      )
    ).cleared,

  /** The text/plain link; a token (from a correct password) opens a protected paste without it. */
  rawUrl: (slug: string, token?: string) => api.url(`/raw/${enc(slug)}`, token ? { token } : undefined),
};
