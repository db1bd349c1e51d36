/** Validation of the settings forms. Pure, so unit-tested without a DOM. */

export type UploadErrors = Partial<Record<"maxUploadSize", "invalid">>;

export function validateMaxUploadSize(raw: string): UploadErrors {
  const value = Number(raw.trim());
  if (!raw.trim() || !Number.isInteger(value) || value <= 0) return { maxUploadSize: "invalid" };
  return {};
}

export type ProxyErrors = Partial<Record<"expires", "invalid">>;

export function validateProxyExpires(raw: string): ProxyErrors {
  const value = Number(raw.trim());
  if (!raw.trim() || !Number.isInteger(value) || value < 0) return { expires: "invalid" };
  return {};
}
