/** The Intl locale of a UI language. */
export const intlLocale = (language: string) => (language === "zh" ? "zh-CN" : "en");

/** A count with the UI language's digit grouping ("1,234"). */
export function formatCount(value: number, language: string): string {
  return new Intl.NumberFormat(intlLocale(language)).format(value);
}

/** Date and time in the UI language; "" for missing or invalid values. */
export function formatDateTime(value: string | number | null | undefined, language: string): string {
  if (value === null || value === undefined || value === "") return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(intlLocale(language), {
    dateStyle: "medium",
    timeStyle: "short",
  }).format(date);
}
