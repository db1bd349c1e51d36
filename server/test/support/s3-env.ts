/**
 * The Swift S3 server started by scripts/test-services. Suites that need it use
 * describeS3: skipped when the variables are absent on a developer machine,
 * and failing loudly under CLIPSHARE_REQUIRE_SERVICES=1 (as `npm test` sets).
 */
import { describe } from "vitest";
import { type TestS3, testS3FromEnv } from "../../../scripts/test-services/s3-config-body.mjs";

export type S3TestEnv = TestS3;

export function s3TestEnv(): S3TestEnv | null {
  const env = testS3FromEnv();
  if (!env && process.env.CLIPSHARE_REQUIRE_SERVICES === "1") {
    throw new Error("CLIPSHARE_TEST_S3_* is not set; start the services with scripts/test-services/start.sh");
  }
  return env;
}

export const describeS3 = (name: string, fn: (env: S3TestEnv) => void) => {
  const env = s3TestEnv();
  describe.skipIf(env === null)(name, () => fn(env as S3TestEnv));
};
