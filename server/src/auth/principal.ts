/**
 * Who is making a request. Resolved once per request by http/middleware/authenticate.ts
 * (and by the WebDAV layer), then passed into domain services, which make every
 * resource decision themselves so HTTP and WebDAV share one set of rules.
 */
export interface ApiKeyIdentity {
  id: string;
  name: string;
  permissions: number;
  basicPath: string;
  role: string;
  isGuest: boolean;
}

/** Why presented credentials gave no principal; `basic_not_accepted`: HTTP Basic sent to the JSON API. */
export type AuthFailure = "token_expired" | "api_key_invalid" | "invalid_credentials" | "basic_not_accepted";

export type Principal =
  | { kind: "admin"; adminId: string; username: string }
  | { kind: "apiKey"; key: ApiKeyIdentity }
  | { kind: "anonymous"; authFailure?: AuthFailure };

export const ANONYMOUS: Principal = { kind: "anonymous" };
