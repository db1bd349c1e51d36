/**
 * Byte sizes and transfer speeds for people: binary steps (1 KB = 1024 B), as
 * the server's own messages count them. Pure, so it is unit-tested.
 */

const UNITS = ["B", "KB", "MB", "GB", "TB", "PB"] as const;
export type ByteUnit = (typeof UNITS)[number];

/** "0 B", "512 B", "1.5 KB", "12.3 MB", "2 GB"; "" for missing or invalid values. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return "";
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${Math.round(value)} B`;
  // Three significant digits at most, without trailing zeros: 1 KB, 1.5 KB, 15.2 KB, 152 KB.
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  const text = value.toFixed(digits).replace(/\.0+$|(\.\d*?)0+$/, "$1");
  return `${text} ${UNITS[unit]}`;
}

/** "1.2 MB/s"; "" when the speed is unknown. */
export function formatSpeed(bytesPerSecond: number | null | undefined): string {
  if (bytesPerSecond === null || bytesPerSecond === undefined || !(bytesPerSecond >= 0)) return "";
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** Size units offered where people type a size (quotas). */
export const SIZE_INPUT_UNITS = ["MB", "GB", "TB"] as const;
export type SizeInputUnit = (typeof SIZE_INPUT_UNITS)[number];

const UNIT_BYTES: Record<SizeInputUnit, number> = { MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };

/** Bytes of a typed amount ("1.5", "GB"); null when the text is not a positive number. */
export function bytesFromInput(amount: string, unit: SizeInputUnit): number | null {
  const trimmed = amount.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return null;
  const value = Number(trimmed);
  if (!(value > 0)) return null;
  return Math.round(value * UNIT_BYTES[unit]);
}

/** The largest input unit that shows a byte count without long decimals. */
export function inputFromBytes(bytes: number | null | undefined): { amount: string; unit: SizeInputUnit } {
  if (!bytes || bytes <= 0) return { amount: "", unit: "GB" };
  for (const unit of ["TB", "GB", "MB"] as const) {
    const value = bytes / UNIT_BYTES[unit];
    // Exact to two decimals in this unit: show it so.
    if (value >= 1 && Math.abs(value * 100 - Math.round(value * 100)) < 1e-9) {
      return { amount: String(Math.round(value * 100) / 100), unit };
    }
  }
  return { amount: String(Math.round((bytes / UNIT_BYTES.MB) * 100) / 100), unit: "MB" };
}
