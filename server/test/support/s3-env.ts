/**
 * The Swift S3 server started by scripts/test-services. Suites that need it use
 * describeS3: skipped when the variables are absent on a developer machine,
 * and failing loudly under CLIPSHARE_REQUIRE_SERVICES=1 (as `npm test` sets).
 */
import { describe } from "vitest";

export interface S3TestEnv {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
}

export function s3TestEnv(): S3TestEnv | null {
  const e = process.env;
  if (!e.CLIPSHARE_TEST_S3_ENDPOINT || !e.CLIPSHARE_TEST_S3_BUCKET) {
    if (e.CLIPSHARE_REQUIRE_SERVICES === "1") {
      throw new Error(
        "CLIPSHARE_TEST_S3_* is not set; start the services with scripts/test-services/start.sh",
      );
    }
    return null;
  }
  return {
    endpoint: e.CLIPSHARE_TEST_S3_ENDPOINT,
    region: e.CLIPSHARE_TEST_S3_REGION ?? "us-east-1",
    accessKeyId: e.CLIPSHARE_TEST_S3_ACCESS_KEY ?? "test:tester",
    secretAccessKey: e.CLIPSHARE_TEST_S3_SECRET_KEY ?? "testing",
    bucket: e.CLIPSHARE_TEST_S3_BUCKET,
  };
}

export const describeS3 = (name: string, fn: (env: S3TestEnv) => void) => {
  const env = s3TestEnv();
  describe.skipIf(env === null)(name, () => fn(env as S3TestEnv));
};
