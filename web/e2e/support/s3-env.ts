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
