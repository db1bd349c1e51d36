/**
 * Scale-out tests: the rig (scripts/scale-out/rig.mjs: two built ClipShare processes on one
 * PostgreSQL database and one S3 bucket, nginx in front) and an HTTP client that remembers which
 * instance answered each request (X-ClipShare-Instance).
 */
import { afterAll, beforeAll, describe } from "vitest";
import { RIG_ADMIN, type Rig, rigMissing, startRig } from "../../../scripts/scale-out/rig.mjs";
import { createMount, createS3Config } from "../support/fs-helpers";
import { s3TestEnv } from "../support/s3-env";
import type { ApiClient, RequestOptions, TestResponse } from "../support/test-app";

export interface ClusterResponse<T = any> extends TestResponse<T> {
  /** The instance that answered. */
  instance: string | null;
}

/** A client of one base URL (nginx or one instance) that records who served each request. */
export class Client implements ApiClient {
  readonly served: string[] = [];
  private token: string | null = null;

  constructor(readonly base: string) {}

  async request<T = any>(
    method: string,
    url: string,
    options: RequestOptions = {},
  ): Promise<ClusterResponse<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.apiKey) headers.authorization = `ApiKey ${options.apiKey}`;
    let body: RequestInit["body"] | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await fetch(new URL(url, this.base), { method, headers, body, redirect: "manual" });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: leave as text
    }
    const instance = res.headers.get("x-clipshare-instance");
    if (instance) this.served.push(instance);
    return { status: res.status, headers: res.headers, body: parsed as T, text, instance };
  }

  /** Raw fetch against this base, also recording the instance. */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(new URL(url, this.base), { redirect: "manual", ...init });
    const instance = res.headers.get("x-clipshare-instance");
    if (instance) this.served.push(instance);
    return res;
  }

  async adminToken(): Promise<string> {
    if (this.token) return this.token;
    const res = await this.request("POST", "/api/admin/login", { body: RIG_ADMIN });
    if (res.status !== 200) throw new Error(`admin login failed: ${res.text}`);
    this.token = res.body.data.token as string;
    return this.token;
  }

  /** Instances seen since `from` (an index into `served`). */
  servedSince(from: number): string[] {
    return [...new Set(this.served.slice(from))].sort();
  }
}

export interface Cluster {
  rig: Rig;
  /** Through nginx. */
  lb: Client;
  /** Straight to instance a and b. */
  a: Client;
  b: Client;
  token: string;
  /** An S3 storage config (its own folder of the test bucket) mounted at /s3; another one at /s3b. */
  s3ConfigId: string;
}

/**
 * A describe block with a running rig. Without the test services it is skipped on a developer
 * machine and fails under CLIPSHARE_REQUIRE_SERVICES=1 (as `npm test` runs it).
 */
export function describeScaleOut(
  name: string,
  fn: (cluster: () => Cluster) => void,
  env: Record<string, string> = {},
) {
  const missing = rigMissing();
  if (missing && process.env.CLIPSHARE_REQUIRE_SERVICES === "1")
    throw new Error(`scale-out tests need their services: ${missing}`);
  describe.skipIf(missing !== null)(name, () => {
    let cluster: Cluster | null = null;
    beforeAll(async () => {
      const rig = await startRig({ env });
      try {
        const lb = new Client(rig.url);
        const token = await lb.adminToken();
        const s3 = s3TestEnv();
        if (!s3) throw new Error("CLIPSHARE_TEST_S3_* is not set");
        const s3ConfigId = await createS3Config(lb, s3, "scale-out");
        const otherConfigId = await createS3Config(lb, s3, "scale-out-b");
        for (const [configId, mountPath] of [
          [s3ConfigId, "/s3"],
          [otherConfigId, "/s3b"],
        ] as const) {
          const storage = { configId, storageType: "S3" as const, cleanup: async () => undefined };
          await createMount(lb, storage, mountPath, { cache_ttl: 60, web_proxy: true });
        }
        const a = new Client(rig.instances[0]!.url);
        const b = new Client(rig.instances[1]!.url);
        cluster = { rig, lb, a, b, token, s3ConfigId };
      } catch (e) {
        await rig.stop();
        throw e;
      }
    }, 90_000);
    afterAll(async () => {
      await cluster?.rig.stop();
    });
    fn(() => {
      if (!cluster) throw new Error("the scale-out rig did not start");
      return cluster;
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
