import { api } from "../../../lib/api";

/**
 * Calls of the paste API (spec §7 "Pastes"). Types mirror what the server
 * answers; see server/src/domain/pastes/paste-service.ts.
 */

/** data of POST /api/paste. */
export interface CreatedPaste {
  id: string;
  slug: string;
  url: string;
  remark: string | null;
  expiresAt: string | null;
  maxViews: number | null;
  hasPassword: boolean;
  createdAt: string;
  authorizedBy: "admin" | "apikey";
}

/** Body of POST /api/paste. */
export interface CreatePasteBody {
  content: string;
  remark?: string;
  slug?: string;
  password?: string;
  /** ISO time, or null for "never". */
  expiresAt?: string | null;
  /** 0 = unlimited. */
  maxViews?: number;
}

/** data of GET /api/paste/:slug and POST /api/paste/:slug. */
export interface PasteView {
  id?: string;
  slug: string;
  /** Absent while a password is required. */
  content?: string;
  remark: string | null;
  expiresAt: string | null;
  maxViews: number | null;
  views: number;
  remainingViews: number | null;
  hasPassword: boolean;
  requiresPassword: boolean;
  isLastView: boolean;
  createdAt: string;
  created_by?: string;
  /** Only after a correct password: opens /api/raw/:slug?token=… for an hour. */
  accessToken?: string;
}

export type PasteState = "ok" | "expired" | "view_limit";

/** A row of GET /api/pastes (content shortened to a preview). */
export interface PasteRow {
  id: string;
  slug: string;
  remark: string | null;
  has_password: boolean;
  expires_at: string | null;
  max_views: number | null;
  views: number;
  remaining_views: number | null;
  is_expired: boolean;
  state: PasteState;
  created_by: string;
  key_name: string | null;
  content_preview: string;
  content_length: number;
  created_at: string;
  updated_at: string;
}

/** data of GET /api/pastes/:id: the row with the full content. */
export interface PasteDetail extends PasteRow {
  content: string;
}

export interface Pagination {
  total: number;
  limit: number;
  offset: number;
  page: number;
  totalPages: number;
  hasMore: boolean;
}

export interface PasteListQuery {
  page: number;
  limit: number;
  search?: string;
  /** true: only expired or used up; false: only live ones. */
  expired?: boolean;
}

export interface PasteListPage {
  items: PasteRow[];
  pagination: Pagination;
}

/** Body of PUT /api/pastes/:idOrSlug; only the fields to change. */
export interface UpdatePasteBody {
  content?: string;
  remark?: string;
  password?: string;
  clearPassword?: boolean;
  expiresAt?: string | null;
  maxViews?: number;
  /** "" asks for a new random slug. */
  newSlug?: string;
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

  /** Counts a view for visitors: call it only when the content is about to be shown. */
  view: (slug: string, signal?: AbortSignal) => api.get<PasteView>(`/paste/${enc(slug)}`, { signal }),

  unlock: (slug: string, password: string) =>
    api.post<PasteView>(`/paste/${enc(slug)}`, { password }, { context: "password" }),

  async list(query: PasteListQuery, signal?: AbortSignal): Promise<PasteListPage> {
    const res = await api.request<PasteRow[]>("/pastes", {
      signal,
      query: {
        page: query.page,
        limit: query.limit,
        search: query.search || undefined,
        expired: query.expired === undefined ? undefined : String(query.expired),
      },
    });
    const items = Array.isArray(res.data) ? res.data : [];
    return { items, pagination: readPagination(res.envelope?.pagination, query, items.length) };
  },

  get: (id: string, signal?: AbortSignal) => api.get<PasteDetail>(`/pastes/${enc(id)}`, { signal }),

  update: (idOrSlug: string, body: UpdatePasteBody) =>
    api.put<PasteRow>(`/pastes/${enc(idOrSlug)}`, body, { offline: "paste-update" }),

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
