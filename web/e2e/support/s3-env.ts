import type { APIRequestContext } from "@playwright/test";
import { s3ConfigBody } from "../../../scripts/test-services/s3-config-body.mjs";
import { expect } from "./fixtures";

/**
 * The Swift S3 service of scripts/test-services for browser tests (the same
 * variables as the server suites: `source .tmp/services.env`). Absent on a
 * developer machine → the S3 test is skipped; under CLIPSHARE_REQUIRE_SERVICES=1
 * (as `npm test` sets) it fails instead.
 */
export interface S3Env {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
}

export function s3Env(): S3Env | null {
  const e = process.env;
  if (!e.CLIPSHARE_TEST_S3_ENDPOINT || !e.CLIPSHARE_TEST_S3_BUCKET) return null;
  return {
    endpoint: e.CLIPSHARE_TEST_S3_ENDPOINT.replace(/\/+$/, ""),
    region: e.CLIPSHARE_TEST_S3_REGION ?? "us-east-1",
    accessKeyId: e.CLIPSHARE_TEST_S3_ACCESS_KEY ?? "test:tester",
    secretAccessKey: e.CLIPSHARE_TEST_S3_SECRET_KEY ?? "testing",
    bucket: e.CLIPSHARE_TEST_S3_BUCKET,
  };
}

export const servicesRequired = () => process.env.CLIPSHARE_REQUIRE_SERVICES === "1";

/**
 * A storage config on the test S3 server storing under `folder` (null when the
 * service is absent); `extra` adds or overrides fields (name, is_public, quota…).
 */
export async function createS3Config(
  request: APIRequestContext,
  token: string,
  folder: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: string } | null> {
  const s3 = s3Env();
  if (!s3) return null;
  const res = await request.post("/api/s3-configs", {
    headers: { Authorization: `Bearer ${token}` },
    data: s3ConfigBody(s3, `Swift ${folder}`, { default_folder: folder, ...extra }),
  });
  expect(res.status(), await res.text()).toBe(201);
  return { id: (await res.json()).data.id as string };
}
