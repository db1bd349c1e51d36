/**
 * Upload configurations for screenshot and shell tools, for one server and
 * API key: ShareX custom uploaders (.sxcu: files and images to /api/upload,
 * text to /api/paste) and a curl one-liner (Flameshot or any tool that writes
 * an image to stdout). The upload answer's `share_url` and `deletion_url` are
 * what they read back.
 */

/** The multipart form field ClipShare's /api/upload reads the file from. */
export const UPLOAD_FILE_FIELD = "file";

export interface SharexConfig {
  Version: string;
  Name: string;
  DestinationType: string;
  RequestMethod: "POST";
  RequestURL: string;
  Headers: Record<string, string>;
  Body: "MultipartFormData" | "JSON";
  FileFormName?: string;
  Data?: string;
  URL: string;
  DeletionURL?: string;
  ErrorMessage: string;
}

const SHAREX_VERSION = "15.0.0";

function hostLabel(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}

/** ShareX uploaders: `file` for images and files, `text` for text (becomes a paste). */
export function sharexConfigs(origin: string, apiKey: string): { file: SharexConfig; text: SharexConfig } {
  const base = origin.replace(/\/+$/, "");
  const host = hostLabel(base);
  const headers = { Authorization: `ApiKey ${apiKey}` };
  return {
    file: {
      Version: SHAREX_VERSION,
      Name: `ClipShare files (${host})`,
      DestinationType: "ImageUploader, FileUploader",
      RequestMethod: "POST",
      RequestURL: `${base}/api/upload`,
      Headers: headers,
      Body: "MultipartFormData",
      FileFormName: UPLOAD_FILE_FIELD,
      URL: "{json:data.share_url}",
      DeletionURL: "{json:data.deletion_url}",
      ErrorMessage: "{json:message}",
    },
    text: {
      Version: SHAREX_VERSION,
      Name: `ClipShare text (${host})`,
      DestinationType: "TextUploader",
      RequestMethod: "POST",
      RequestURL: `${base}/api/paste`,
      Headers: headers,
      Body: "JSON",
      // ShareX escapes {input} for the JSON body.
      Data: '{"content":"{input}"}',
      URL: `${base}/paste/{json:data.slug}`,
      ErrorMessage: "{json:message}",
    },
  };
}

/** Flameshot (or any command that prints a PNG) piped to curl; prints the share link. */
export function curlUploadCommand(origin: string, apiKey: string, source = "flameshot gui -r"): string {
  const base = origin.replace(/\/+$/, "");
  return `${source} | curl -sS -H 'Authorization: ApiKey ${apiKey}' -F '${UPLOAD_FILE_FIELD}=@-;filename=screenshot.png;type=image/png' '${base}/api/upload' | sed -n 's/.*"share_url":"\\([^"]*\\)".*/\\1/p'`;
}
