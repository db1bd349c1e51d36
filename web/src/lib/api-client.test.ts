// The shared API client (packages/shared) as the web app uses it, with the app's error texts.
import { ApiError, type AuthFailure, buildUrl, type Credentials, createApiClient } from "@clipshare/shared";
import { describe, expect, it, vi } from "vitest";
import { describeApiError } from "./api-error";

type Handler = (url: string, init: RequestInit) => Promise<Response> | Response;

function json(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function client(handler: Handler, credentials: Credentials | null = null) {
  const failures: AuthFailure[] = [];
  const calls: { url: string; init: RequestInit }[] = [];
  const api = createApiClient({
    baseUrl: () => "https://clip.example",
    fetch: (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return handler(url, init);
    }) as typeof fetch,
    credentials: () => credentials,
    onAuthFailure: (f) => failures.push(f),
    language: () => "zh-CN",
  });
  return { api, failures, calls };
}

async function caught(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected the request to fail");
}

describe("buildUrl", () => {
  it("prefixes /api and repeats array parameters", () => {
    expect(buildUrl("", "/files", { limit: 50, tag: ["a", "b"], skip: undefined })).toBe(
      "/api/files?limit=50&tag=a&tag=b",
    );
    expect(buildUrl("https://x.test/", "pastes")).toBe("https://x.test/api/pastes");
  });
});

describe("envelope", () => {
  it("returns data of a 200/201/202 envelope", async () => {
    const { api } = client(() =>
      json({ code: 201, message: "API key created", success: true, data: { key: "k" } }, 201),
    );
    await expect(api.post("/admin/api-keys", { name: "x" })).resolves.toEqual({ key: "k" });
  });

  it("passes JSON without a code through unchanged", async () => {
    const { api } = client(() => json({ status: "ok" }));
    await expect(api.get("/health")).resolves.toEqual({ status: "ok" });
  });

  it("rejects a code outside 200/201/202 even on HTTP 200, with the server message", async () => {
    const { api } = client(() => json({ code: 500, message: "boom", success: false, data: null }));
    const err = await caught(api.get("/x"));
    expect(err.kind).toBe("envelope");
    expect(describeApiError(err)).toEqual({ text: "boom" });
  });

  it("falls back to 'request failed' for a code mismatch without message", async () => {
    const { api } = client(() => json({ code: 400 }));
    expect(describeApiError(await caught(api.get("/x")))).toEqual({ key: "requestFailed" });
  });

  it("sends JSON bodies, auth and language headers", async () => {
    const { api, calls } = client(() => json({ code: 200, data: null }), { type: "apikey", key: "abc" });
    await api.post("/paste", { content: "hi" });
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers.Authorization).toBe("ApiKey abc");
    expect(headers["Content-Type"]).toBe("application/json");
    expect(headers["Accept-Language"]).toBe("zh-CN");
    expect(calls[0]!.init.body).toBe('{"content":"hi"}');
  });

  it("sends FormData as is and honours auth: none", async () => {
    const { api, calls } = client(() => json({ code: 200, data: 1 }), { type: "admin", token: "t" });
    const form = new FormData();
    form.set("a", "b");
    await api.post("/upload", form, { auth: "none" });
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers.Authorization).toBeUndefined();
    expect(headers["Content-Type"]).toBeUndefined();
    expect(calls[0]!.init.body).toBe(form);
  });
});

describe("401 rules", () => {
  const unauthorized = (error = "unauthorized", message = "Authentication required") =>
    json({ code: 401, message, success: false, error, data: null }, 401);

  it("admin bearer: logs out and says the session expired", async () => {
    const { api, failures } = client(() => unauthorized("token_expired"), { type: "admin", token: "t" });
    const err = await caught(api.get("/admin/api-keys"));
    expect(failures).toEqual(["admin-expired"]);
    expect(describeApiError(err)).toEqual({ key: "adminSessionExpired" });
  });

  it("API key outside file paths: logs out, key invalid", async () => {
    const { api, failures } = client(() => unauthorized("api_key_invalid"), { type: "apikey", key: "k" });
    const err = await caught(api.get("/pastes"));
    expect(failures).toEqual(["api-key-invalid"]);
    expect(describeApiError(err)).toEqual({ key: "apiKeyInvalid" });
  });

  it("API key on a file/upload path with an access message: shown, no logout", async () => {
    const { api, failures } = client(() => unauthorized("unauthorized", "No access to this file"), {
      type: "apikey",
      key: "k",
    });
    const err = await caught(api.get("/files/12"));
    expect(failures).toEqual([]);
    expect(describeApiError(err)).toEqual({ text: "No access to this file" });
  });

  it("API key on a file path whose key was refused: logs out", async () => {
    const { api, failures } = client(() => unauthorized("api_key_invalid"), { type: "apikey", key: "k" });
    await caught(api.post("/upload", new FormData()));
    expect(failures).toEqual(["api-key-invalid"]);
  });

  it("signed out: 'unauthorized, please log in'", async () => {
    const { api, failures } = client(() => unauthorized());
    expect(describeApiError(await caught(api.get("/admin/api-keys")))).toEqual({ key: "unauthorized" });
    expect(failures).toEqual([]);
  });

  it("login: translated wrong-credentials text, no logout", async () => {
    const { api, failures } = client(() => unauthorized("invalid_credentials", "Wrong username or password"));
    const err = await caught(api.post("/admin/login", {}, { auth: "none", context: "login" }));
    expect(describeApiError(err)).toEqual({ key: "invalidCredentials" });
    expect(failures).toEqual([]);
  });

  it("change-password: server message, no logout", async () => {
    const { api, failures } = client(() => unauthorized("invalid_credentials", "Current password is wrong"), {
      type: "admin",
      token: "t",
    });
    const err = await caught(api.post("/admin/change-password", {}, { context: "change-password" }));
    expect(describeApiError(err)).toEqual({ text: "Current password is wrong" });
    expect(failures).toEqual([]);
  });

  it("password verification: server message or 'incorrect password'", async () => {
    const { api } = client(() => new Response("", { status: 401 }));
    const err = await caught(api.post("/paste/abc", { password: "x" }, { context: "password" }));
    expect(describeApiError(err)).toEqual({ key: "incorrectPassword" });
  });

  it("password verification: a wrong password is our own text, not the server's English", async () => {
    const { api } = client(() =>
      json({ code: 401, message: "Incorrect password", error: "wrong_password" }, 401),
    );
    const err = await caught(api.post("/paste/abc", { password: "x" }, { context: "password" }));
    expect(describeApiError(err)).toEqual({ key: "incorrectPassword" });
  });
});

describe("other statuses", () => {
  it("409: server message, else 'link suffix taken'", async () => {
    const withMessage = client(() =>
      json({ code: 409, message: "Key name already exists", error: "conflict" }, 409),
    );
    expect(describeApiError(await caught(withMessage.api.post("/x")))).toEqual({
      text: "Key name already exists",
    });
    const bare = client(() => new Response(null, { status: 409 }));
    expect(describeApiError(await caught(bare.api.post("/x")))).toEqual({ key: "slugTaken" });
  });

  it("slug_taken id: translated text", async () => {
    const { api } = client(() => json({ code: 409, message: "Slug taken", error: "slug_taken" }, 409));
    expect(describeApiError(await caught(api.post("/paste")))).toEqual({ key: "slugTaken" });
  });

  it("429: retry-after seconds", async () => {
    const { api } = client(() =>
      json({ code: 429, message: "Too many", error: "rate_limited" }, 429, { "retry-after": "42" }),
    );
    expect(describeApiError(await caught(api.post("/admin/login")))).toEqual({
      key: "rateLimited",
      values: { seconds: 42 },
    });
  });

  it("507: insufficient storage with the server message", async () => {
    const { api } = client(() =>
      json({ code: 507, message: "quota exceeded", error: "insufficient_storage" }, 507),
    );
    expect(describeApiError(await caught(api.post("/s3/presign")))).toEqual({
      key: "insufficientStorage",
      values: { message: "quota exceeded" },
    });
  });

  it("other non-2xx: server message, else 'HTTP error {status}'", async () => {
    const withMessage = client(() =>
      json({ code: 400, message: "Key name cannot be empty", error: "validation_failed" }, 400),
    );
    expect(describeApiError(await caught(withMessage.api.post("/x")))).toEqual({
      text: "Key name cannot be empty",
    });
    const bare = client(
      () =>
        new Response("<html>oops</html>".repeat(100), {
          status: 502,
          headers: { "content-type": "text/html" },
        }),
    );
    expect(describeApiError(await caught(bare.api.get("/x")))).toEqual({
      key: "httpStatus",
      values: { status: 502 },
    });
  });
});

describe("transport failures", () => {
  it("network error", async () => {
    const { api } = client(() => {
      throw new TypeError("Failed to fetch");
    });
    expect(describeApiError(await caught(api.get("/x")))).toEqual({ key: "network" });
  });

  it("unparseable JSON", async () => {
    const { api } = client(
      () => new Response("{not json", { status: 200, headers: { "content-type": "application/json" } }),
    );
    expect(describeApiError(await caught(api.get("/x")))).toEqual({ key: "parse" });
  });

  const hanging: Handler = (_url, init) =>
    new Promise((_resolve, reject) => {
      init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
    });

  it("timeout", async () => {
    vi.useFakeTimers();
    try {
      const { api } = client(hanging);
      const pending = caught(api.get("/x", { timeoutMs: 1000 }));
      await vi.advanceTimersByTimeAsync(1001);
      expect(describeApiError(await pending)).toEqual({ key: "timeout" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("uploads get five minutes", async () => {
    vi.useFakeTimers();
    try {
      const { api } = client(hanging);
      const pending = caught(api.post("/upload", new Blob(["x"]), { upload: true }));
      await vi.advanceTimersByTimeAsync(60_000);
      let settled = false;
      void pending.then(() => {
        settled = true;
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(240_001);
      expect((await pending).kind).toBe("timeout");
    } finally {
      vi.useRealTimers();
    }
  });

  it("abort by the caller", async () => {
    const { api } = client(hanging);
    const controller = new AbortController();
    const pending = caught(api.get("/x", { signal: controller.signal }));
    controller.abort();
    expect(describeApiError(await pending)).toEqual({ key: "cancelled" });
  });
});

describe("offline writes", () => {
  it("hands a queueable write that finds no network to the queue and fails with kind queued", async () => {
    const writes: unknown[] = [];
    const api = createApiClient({
      baseUrl: () => "https://clip.example",
      fetch: (async () => {
        throw new TypeError("Failed to fetch");
      }) as typeof fetch,
      credentials: () => ({ type: "admin", token: "t1" }),
      enqueueOffline: async (write) => {
        writes.push(write);
      },
    });

    const error = await caught(api.post("/paste", { content: "hi" }, { offline: "paste-create" }));
    expect(error.kind).toBe("queued");
    expect(describeApiError(error)).toEqual({ key: "queuedOffline" });
    expect(writes).toEqual([
      {
        type: "paste-create",
        endpoint: "/paste",
        method: "POST",
        data: { content: "hi" },
        credentials: { type: "admin", token: "t1" },
        baseUrl: "https://clip.example",
      },
    ]);

    // The query goes with the path.
    await caught(
      api.request("/pastes/x", { method: "PUT", query: { v: 2 }, body: {}, offline: "paste-update" }),
    );
    expect(writes[1]).toMatchObject({ endpoint: "/pastes/x?v=2", method: "PUT" });

    // Calls not marked queueable, and a queue that cannot store, keep the network error.
    expect((await caught(api.post("/admin/login", { a: 1 }))).kind).toBe("network");
    const noQueue = createApiClient({
      baseUrl: () => "",
      fetch: (async () => {
        throw new TypeError("Failed to fetch");
      }) as typeof fetch,
      enqueueOffline: async () => {
        throw new Error("IndexedDB blocked");
      },
    });
    expect((await caught(noQueue.post("/paste", {}, { offline: "paste-create" }))).kind).toBe("network");
  });
});
