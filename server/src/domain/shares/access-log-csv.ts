/**
 * CSV of a share's access log (RFC 4180: comma-separated, CRLF line ends,
 * fields with a comma, quote or line break quoted, quotes doubled). A cell
 * that starts with = + - @ (or a tab or carriage return) gets a leading
 * apostrophe, so a spreadsheet opening the file never reads it as a formula.
 */
import type { AccessLogEntry } from "@clipshare/shared";

export const ACCESS_LOG_CSV_HEADER = ["time", "kind", "bytes", "browser", "os", "ip"] as const;

export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: Array<string | number | null>): string =>
  `${cells.map(csvCell).join(",")}\r\n`;

export function accessLogCsvLine(entry: AccessLogEntry): string {
  return csvLine([entry.at, entry.kind, entry.bytes, entry.browser, entry.os, entry.ip]);
}

/** The whole export, header first, as text chunks produced while the entries are read. */
export async function* accessLogCsv(entries: AsyncIterable<AccessLogEntry>): AsyncGenerator<string> {
  yield csvLine([...ACCESS_LOG_CSV_HEADER]);
  for await (const entry of entries) yield accessLogCsvLine(entry);
}
