import type { Credentials } from "@clipshare/shared";
import {
  type AdminLogin,
  ALL_PERMISSIONS,
  normalizeBasePath,
  type PermissionFlags,
  permissionFlags,
  REVALIDATE_INTERVAL_MS,
  type Role,
  STORAGE_KEYS,
} from "@clipshare/shared";
import { useSyncExternalStore } from "react";
import { api, bindApiAuth } from "./api";
import { ApiError, type AuthFailure } from "./api-error";
import {
  type ApiKeyVerification,
  type AuthState,
  type Capabilities,
  capabilitiesOf,
  type KeyInfo,
  parseKeyInfo,
  parsePermissionMask,
  SIGNED_OUT,
} from "./auth-state";
import { recentPastes } from "./recent-pastes";
import { readJson, readString, writeJson, writeString } from "./storage";

/**
 * Auth state and its transitions: who is signed in, with
 * which credential and permissions, persisted under the spec's localStorage keys,
 * revalidated when the last check is older than 5 minutes.
 */

/** Why a session ended; selects the window event. */
export type LogoutReason = "user" | "admin-token-expired" | "api-key-invalid" | "validation-failed";

export const AUTH_EVENTS = {
  changed: "auth-state-changed",
  adminTokenExpired: "admin-token-expired",
  apiKeyInvalid: "api-key-invalid",
} as const;

// ---------------------------------------------------------------------------

let state: AuthState = SIGNED_OUT;
const listeners = new Set<() => void>();
let pendingValidation: Promise<boolean> | null = null;

function setState(next: AuthState): void {
  state = next;
  for (const listener of listeners) listener();
}

function emit(name: string, detail: Record<string, unknown>): void {
  if (typeof window === "undefined") return;
  window.dispatchEvent(new CustomEvent(name, { detail }));
}

/** A session (administrator, user or guest) sends its token as Bearer; a key as ApiKey. */
function credentialsOf(s: AuthState): Credentials | null {
  if ((s.authType === "admin" || s.authType === "user") && s.adminToken)
    return { type: "admin", token: s.adminToken };
  if (s.authType === "apikey" && s.apiKey) return { type: "apikey", key: s.apiKey };
  return null;
}

/** What a user's session keeps beside its token, to restore it before the first check. */
interface StoredAccount {
  id: string | number | null;
  name: string;
  role: Role;
  permissions: number;
  basic_path: string;
}

function persist(s: AuthState): void {
  const session = s.authType === "admin" || s.authType === "user";
  writeString(STORAGE_KEYS.adminToken, session ? s.adminToken : null);
  writeJson(
    STORAGE_KEYS.accountInfo,
    s.authType === "user" && s.userInfo
      ? {
          id: s.userInfo.id,
          name: s.userInfo.name,
          role: s.userInfo.role ?? "user",
          permissions: s.permissions,
          basic_path: s.userInfo.basicPath,
        }
      : null,
  );
  writeString(STORAGE_KEYS.apiKey, s.authType === "apikey" ? s.apiKey : null);
  writeJson(STORAGE_KEYS.apiKeyPermissions, s.authType === "apikey" ? permissionFlags(s.permissions) : null);
  writeJson(STORAGE_KEYS.apiKeyInfo, s.authType === "apikey" ? s.keyInfo : null);
}

/** Read the stored credential (admin token wins over an API key). */
function restoreFromStorage(): AuthState {
  const token = readString(STORAGE_KEYS.adminToken);
  const account = readJson<StoredAccount>(STORAGE_KEYS.accountInfo);
  if (token && account) return userState(token, account, null);
  if (token) {
    return {
      ...SIGNED_OUT,
      authType: "admin",
      adminToken: token,
      permissions: ALL_PERMISSIONS,
      userInfo: { id: null, name: "", basicPath: "/" },
    };
  }
  const key = readString(STORAGE_KEYS.apiKey);
  if (key) {
    const storedPermissions = readJson<Partial<PermissionFlags> | number>(STORAGE_KEYS.apiKeyPermissions);
    const mask = parsePermissionMask({ permissions: storedPermissions ?? undefined }) ?? 0;
    const info = readJson<Partial<KeyInfo>>(STORAGE_KEYS.apiKeyInfo) ?? {};
    const keyInfo = parseKeyInfo({ key_info: info });
    return {
      ...SIGNED_OUT,
      authType: "apikey",
      apiKey: key,
      permissions: mask,
      keyInfo,
      userInfo: { id: keyInfo.id, name: keyInfo.name, basicPath: keyInfo.basic_path },
    };
  }
  return SIGNED_OUT;
}

function apiKeyState(key: string, data: ApiKeyVerification): AuthState {
  const mask = parsePermissionMask(data);
  if (mask === null) throw new ApiError({ kind: "invalid_response", reason: "permissionInfoUnavailable" });
  const keyInfo = parseKeyInfo(data);
  return {
    authType: "apikey",
    adminToken: null,
    apiKey: key,
    keyInfo,
    permissions: mask,
    userInfo: { id: keyInfo.id, name: keyInfo.name, basicPath: keyInfo.basic_path },
    lastValidated: Date.now(),
  };
}

function userState(token: string, account: StoredAccount, lastValidated: number | null): AuthState {
  return {
    authType: "user",
    adminToken: token,
    apiKey: null,
    keyInfo: null,
    permissions: Number.isInteger(account.permissions) ? account.permissions : 0,
    userInfo: {
      id: account.id,
      name: account.name,
      basicPath: normalizeBasePath(account.basic_path),
      role: account.role,
    },
    lastValidated,
  };
}

/** A session's state from GET /test/api-key: an administrator's, or a user's with their grant. */
function sessionState(token: string, data: ApiKeyVerification): AuthState {
  const role = data.user?.role ?? (data.is_admin ? "admin" : "user");
  if (role === "admin") {
    return {
      ...SIGNED_OUT,
      authType: "admin",
      adminToken: token,
      permissions: ALL_PERMISSIONS,
      userInfo: {
        id: data.user?.id ?? null,
        name: data.user?.username ?? data.name ?? "",
        basicPath: "/",
        role,
      },
      lastValidated: Date.now(),
    };
  }
  return userState(
    token,
    {
      id: data.user?.id ?? null,
      name: data.user?.username ?? data.name ?? "",
      role,
      permissions: parsePermissionMask(data) ?? 0,
      basic_path: data.basic_path ?? "/",
    },
    Date.now(),
  );
}

const logoutEvent: Record<LogoutReason, string> = {
  user: AUTH_EVENTS.changed,
  "validation-failed": AUTH_EVENTS.changed,
  "admin-token-expired": AUTH_EVENTS.adminTokenExpired,
  "api-key-invalid": AUTH_EVENTS.apiKeyInvalid,
};

export const authStore = {
  getState: (): AuthState => state,

  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  /** Restore the stored session at startup; it is revalidated on first use (lastValidated is null). */
  init(): void {
    setState(restoreFromStorage());
    if (typeof window !== "undefined") {
      window.addEventListener("storage", (event) => {
        const watched: (string | null)[] = [
          STORAGE_KEYS.adminToken,
          STORAGE_KEYS.apiKey,
          STORAGE_KEYS.accountInfo,
        ];
        if (event.key !== null && !watched.includes(event.key)) return;
        // Another tab signed in or out: follow it.
        setState(restoreFromStorage());
      });
    }
  },

  async loginAdmin(username: string, password: string): Promise<void> {
    await authStore.signInAt("/admin/login", { username, password }, username);
  },

  /**
   * The sign-in's second step: the challenge a correct password answered with (401
   * `second_factor_required`) and a code from the authenticator app or a recovery code.
   */
  async loginSecondFactor(challenge: string, code: string, username: string): Promise<void> {
    await authStore.signInAt("/admin/login/second-factor", { challenge, code }, username);
  },

  /** The second step with a passkey: options for the challenge's account, signed in the browser. */
  async loginSecondFactorPasskey(challenge: string, username: string): Promise<void> {
    const { passkeySignInOptions, signWithPasskey } = await import("./accounts/passkeys");
    const passkey = await signWithPasskey(await passkeySignInOptions(challenge));
    await authStore.signInAt("/admin/login/second-factor", { challenge, passkey }, username);
  },

  /** Passwordless: any passkey of this site that the browser offers names its account. */
  async loginPasskey(): Promise<void> {
    const { passkeySignInOptions, signWithPasskey } = await import("./accounts/passkeys");
    const response = await signWithPasskey(await passkeySignInOptions());
    await authStore.signInAt("/admin/login/passkey", { response }, "");
  },

  /** Every sign-in route answers as POST /admin/login does: keep the session it made. */
  async signInAt(path: string, body: unknown, username: string): Promise<void> {
    const res = await api.request<Partial<AdminLogin> | null>(path, {
      method: "POST",
      body,
      auth: "none",
      context: "login",
    });
    const token = res.data?.token;
    if (!token) throw new ApiError({ kind: "invalid_response", reason: "loginMissingToken" });
    await authStore.startSession(token, res.data?.role ?? "admin", res.data?.username ?? username);
  },

  /**
   * Keep a session token (from sign-in or an accepted invitation). An administrator's needs
   * nothing more (a 0.7.3 server sends no role); a user's grant comes from GET /test/api-key.
   */
  async startSession(token: string, role: Role, username: string): Promise<void> {
    let next: AuthState;
    if (role === "admin") {
      next = {
        ...SIGNED_OUT,
        authType: "admin",
        adminToken: token,
        permissions: ALL_PERMISSIONS,
        userInfo: { id: null, name: username, basicPath: "/", role },
        lastValidated: Date.now(),
      };
    } else {
      const check = await api.request<ApiKeyVerification | null>("/test/api-key", {
        auth: { type: "admin", token },
        context: "login",
      });
      if (!check.data) throw new ApiError({ kind: "invalid_response", reason: "apiKeyValidationFailed" });
      next = sessionState(token, check.data);
    }
    persist(next);
    setState(next);
    emit(AUTH_EVENTS.changed, { authType: next.authType });
  },

  /**
   * Sign in with an API key: verified with GET /test/api-key. On failure the
   * previous key and type stay (restored), then a logout runs.
   */
  async loginApiKey(rawKey: string): Promise<void> {
    const key = rawKey.trim();
    const previous = state;
    try {
      const res = await api.request<ApiKeyVerification | null>("/test/api-key", {
        auth: { type: "apikey", key },
        context: "login",
      });
      if (!res.data) throw new ApiError({ kind: "invalid_response", reason: "apiKeyValidationFailed" });
      const next = apiKeyState(key, res.data);
      if (!capabilitiesOf(next).hasPanelAccess) {
        throw new ApiError({ kind: "invalid_response", reason: "insufficientPermissions" });
      }
      persist(next);
      setState(next);
      emit(AUTH_EVENTS.changed, { authType: "apikey" });
    } catch (error) {
      setState(previous);
      persist(previous);
      await authStore.logout("validation-failed");
      throw error;
    }
  },

  /**
   * End the session: tell the server (admin only), clear every stored credential
   * and emit exactly one of the spec's events.
   */
  async logout(reason: LogoutReason = "user"): Promise<void> {
    const previous = state;
    if (previous.authType === "none") return;
    pendingValidation = null;
    persist(SIGNED_OUT);
    setState(SIGNED_OUT);
    // Signing out on purpose leaves no links of this session on the device.
    if (reason === "user") recentPastes.clear();
    emit(logoutEvent[reason], { reason, previousAuthType: previous.authType });
    if (
      (previous.authType === "admin" || previous.authType === "user") &&
      previous.adminToken &&
      reason === "user"
    ) {
      try {
        await api.post("/admin/logout", undefined, {
          auth: { type: "admin", token: previous.adminToken },
          context: "login",
        });
      } catch {
        // The local session is gone either way; an unreachable server keeps a token that expires.
      }
    }
  },

  /** Ask the server whether the current credential still holds. Network trouble keeps the session. */
  async validate(): Promise<boolean> {
    const current = state;
    const credentials = credentialsOf(current);
    if (!credentials) return false;
    try {
      if (credentials.type === "admin" && current.authType === "admin") {
        await api.request("/test/admin-token", { auth: credentials, context: "login" });
        if (state.adminToken === current.adminToken) setState({ ...state, lastValidated: Date.now() });
      } else if (credentials.type === "admin") {
        // A user's session: the answer carries the grant as it is now.
        const res = await api.request<ApiKeyVerification | null>("/test/api-key", {
          auth: credentials,
          context: "login",
        });
        if (!res.data) throw new ApiError({ kind: "invalid_response", reason: "apiKeyValidationFailed" });
        if (state.adminToken === current.adminToken) {
          const next = sessionState(credentials.token, res.data);
          persist(next);
          setState(next);
        }
      } else {
        const res = await api.request<ApiKeyVerification | null>("/test/api-key", {
          auth: credentials,
          context: "login",
        });
        if (!res.data) throw new ApiError({ kind: "invalid_response", reason: "apiKeyValidationFailed" });
        if (state.apiKey === current.apiKey) {
          const next = apiKeyState(credentials.key, res.data);
          persist(next);
          setState(next);
        }
      }
      return true;
    } catch (error) {
      const transient =
        error instanceof ApiError &&
        (error.kind === "network" ||
          error.kind === "timeout" ||
          error.kind === "abort" ||
          (error.kind === "http" && (error.status === 429 || error.status >= 500)));
      if (transient) return state.authType !== "none";
      // Only end the session that was checked, not one started meanwhile.
      if (credentialsOf(state)?.type === credentials.type && state === current) {
        await authStore.logout(credentials.type === "admin" ? "admin-token-expired" : "api-key-invalid");
      }
      return false;
    }
  },

  /** Revalidate when the last check is missing or older than 5 minutes. */
  ensureValidated(): Promise<boolean> {
    if (state.authType === "none") return Promise.resolve(false);
    if (state.lastValidated !== null && Date.now() - state.lastValidated < REVALIDATE_INTERVAL_MS) {
      return Promise.resolve(true);
    }
    if (!pendingValidation) {
      pendingValidation = authStore.validate().finally(() => {
        pendingValidation = null;
      });
    }
    return pendingValidation;
  },

  /** Change one's own username and/or password; the server revokes every token, so log out. */
  async changeAdminCredentials(input: {
    currentPassword: string;
    newUsername?: string;
    newPassword?: string;
  }): Promise<void> {
    const body: Record<string, string> = { currentPassword: input.currentPassword };
    if (input.newUsername) body.newUsername = input.newUsername;
    if (input.newPassword) body.newPassword = input.newPassword;
    await api.post("/admin/change-password", body, { context: "change-password" });
    // The token is already revoked server-side; no logout call is needed.
    persist(SIGNED_OUT);
    const previous = state;
    setState(SIGNED_OUT);
    emit(AUTH_EVENTS.changed, { reason: "credentials-changed", previousAuthType: previous.authType });
  },
};

bindApiAuth(
  () => credentialsOf(state),
  (failure: AuthFailure) => {
    if (failure === "admin-expired") void authStore.logout("admin-token-expired");
    else if (failure === "api-key-invalid") void authStore.logout("api-key-invalid");
  },
);

/** The signed-in credential, for calls made outside the shared client. */
export function currentCredentials(): Credentials | null {
  return credentialsOf(state);
}

export function useAuth(): AuthState {
  return useSyncExternalStore(authStore.subscribe, authStore.getState, authStore.getState);
}

export function useCapabilities(): Capabilities {
  return capabilitiesOf(useAuth());
}
