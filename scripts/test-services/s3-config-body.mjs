/**
 * The body of POST /api/s3-configs for an S3-compatible test endpoint, shared
 * by the server tests, the browser tests and the benchmarks: one place knows which fields a
 * working S3 storage config needs (path-style addressing for the test server).
 */

/**
 * The test S3 server named by the CLIPSHARE_TEST_S3_* variables (`source .tmp/services.env`),
 * or null when they are not set.
 * @param {Record<string, string | undefined>} [e]
 */
export function testS3FromEnv(e = process.env) {
  if (!e.CLIPSHARE_TEST_S3_ENDPOINT || !e.CLIPSHARE_TEST_S3_BUCKET) return null;
  return {
    endpoint: e.CLIPSHARE_TEST_S3_ENDPOINT.replace(/\/+$/, ""),
    region: e.CLIPSHARE_TEST_S3_REGION ?? "us-east-1",
    accessKeyId: e.CLIPSHARE_TEST_S3_ACCESS_KEY ?? "test:tester",
    secretAccessKey: e.CLIPSHARE_TEST_S3_SECRET_KEY ?? "testing",
    bucket: e.CLIPSHARE_TEST_S3_BUCKET,
  };
}

/**
 * @param {{ endpoint: string, bucket: string, region?: string, accessKeyId: string, secretAccessKey: string }} s3
 * @param {string} name
 * @param {Record<string, unknown>} [extra] fields to add or override (default_folder, is_public, …)
 */
export function s3ConfigBody(s3, name, extra = {}) {
  return {
    name,
    storage_type: "S3",
    provider_type: "Other S3 Compatible",
    endpoint_url: s3.endpoint,
    bucket_name: s3.bucket,
    region: s3.region ?? "us-east-1",
    access_key_id: s3.accessKeyId,
    secret_access_key: s3.secretAccessKey,
    path_style: true,
    ...extra,
  };
}
