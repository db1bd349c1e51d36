export function s3ConfigBody(
  s3: { endpoint: string; bucket: string; region?: string; accessKeyId: string; secretAccessKey: string },
  name: string,
  extra?: Record<string, unknown>,
): Record<string, unknown>;
