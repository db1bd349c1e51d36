/** How an S3 endpoint setting becomes a URL: trailing slashes dropped, a bare host gets https; empty means AWS itself. */
export function normalizeEndpoint(endpoint: string): string | undefined {
  const trimmed = endpoint.trim().replace(/\/+$/, "");
  if (!trimmed) return undefined;
  return /^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}
