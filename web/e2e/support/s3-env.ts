import type { APIRequestContext } from "@playwright/test";
import { s3ConfigBody, type TestS3, testS3FromEnv } from "../../../scripts/test-services/s3-config-body.mjs";
import { expect } from "./fixtures";

/**
 * The Swift S3 service of scripts/test-services for browser tests (the same
 * variables as the server suites: `source .tmp/services.env`). Absent on a
 * developer machine → the S3 test is skipped; under CLIPSHARE_REQUIRE_SERVICES=1
 * (as `npm test` sets) it fails instead.
 */
export type S3Env = TestS3;

export const s3Env = (): S3Env | null => testS3FromEnv();

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
