import { type TestS3, testS3FromEnv } from "../../../scripts/test-services/s3-config-body.mjs";

/**
 * The Swift S3 service of scripts/test-services for browser tests (the same
 * variables as the server suites: `source .tmp/services.env`). Absent on a
 * developer machine → the S3 test is skipped; under CLIPSHARE_REQUIRE_SERVICES=1
 * (as `npm test` sets) it fails instead.
 */
export type S3Env = TestS3;

export const s3Env = (): S3Env | null => testS3FromEnv();

export const servicesRequired = () => process.env.CLIPSHARE_REQUIRE_SERVICES === "1";
