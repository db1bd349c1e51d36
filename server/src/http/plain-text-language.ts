/**
 * Language of the plain-text error answers of directly opened URLs (raw pastes, file
 * downloads): no web app runs there to translate them, so the server follows the
 * browser's Accept-Language. English stays the default and the JSON API is unchanged.
 */

export type PlainTextLanguage = "en" | "zh";

/** Chinese texts by error id; an id without an entry keeps the English message. */
const ZH_TEXTS: Record<string, string> = {
  paste_not_found: "文本分享不存在或已过期",
  paste_expired: "文本分享已过期或已达到最大查看次数",
  paste_view_limit: "文本分享已达到最大查看次数",
  file_not_found: "文件不存在",
  file_expired: "文件已过期",
  file_view_limit: "文件已达到最大查看次数",
  wrong_password: "密码错误",
  password_required: "需要密码才能访问此内容",
  preview_bot_refused: "链接预览不会获得文件内容：请在浏览器中打开此链接",
  rate_limited: "尝试次数过多，请稍后再试",
  not_found: "请求的资源不存在",
};

/** The preferred of English and Chinese in an Accept-Language header (highest q wins, then order). */
export function plainTextLanguage(acceptLanguage: string | undefined): PlainTextLanguage {
  let best: { lang: PlainTextLanguage; q: number } | null = null;
  for (const part of (acceptLanguage ?? "").split(",")) {
    const [tag = "", ...params] = part.trim().toLowerCase().split(";");
    const primary = tag.split("-")[0];
    if (primary !== "en" && primary !== "zh") continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { lang: primary, q };
  }
  return best?.lang ?? "en";
}

/** The text of an error answer in the given language. */
export function plainTextMessage(language: PlainTextLanguage, errorId: string, english: string): string {
  return language === "zh" ? (ZH_TEXTS[errorId] ?? english) : english;
}
