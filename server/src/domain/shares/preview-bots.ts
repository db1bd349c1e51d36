/**
 * User agents of link unfurlers, chat/mail previewers and crawlers. They fetch a
 * link the moment it is pasted into a chat, which must not burn a view of a
 * limited share: they get a neutral response instead of the content.
 */
const BOT_PATTERN = new RegExp(
  [
    "bot\\b",
    "bot/",
    "crawler",
    "spider",
    "slurp",
    "facebookexternalhit",
    "facebookcatalog",
    "slack",
    "discord",
    "telegram",
    "whatsapp",
    "skypeuripreview",
    "teams",
    "microsoft office",
    "outlook",
    "linkedin",
    "pinterest",
    "embedly",
    "iframely",
    "vkshare",
    "w3c_validator",
    "bingpreview",
    "mattermost",
    "rocket\\.chat",
    "zoom",
    "signal",
    "preview",
    "headlesschrome.*lighthouse",
    "mastodon",
    "pleroma",
    "misskey",
    "google-inspectiontool",
    "qwantify",
    "yandex",
    "baidu",
    "duckduck",
    "applebot",
    "urlscan",
    "virustotal",
    "safebrowsing",
    "proofpoint",
    "mimecast",
    "barracuda",
  ].join("|"),
  "i",
);

export function isLinkPreviewBot(userAgent: string | undefined | null): boolean {
  if (!userAgent) return false;
  return BOT_PATTERN.test(userAgent);
}
