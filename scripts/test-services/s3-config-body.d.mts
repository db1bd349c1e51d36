export interface TestS3 {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
}
export function testS3FromEnv(env?: Record<string, string | undefined>): TestS3 | null;
export function s3ConfigBody(
  s3: { endpoint: string; bucket: string; region?: string; accessKeyId: string; secretAccessKey: string },
  name: string,
  extra?: Record<string, unknown>,
): Record<string, unknown>;
