/**
 * Upload progress on stderr: a bar with speed and time left when stderr is a
 * terminal, nothing otherwise (logs and pipes stay clean).
 */
export interface Progress {
  start(name: string, total: number): void;
  add(bytes: number): void;
  done(): void;
}

export const silentProgress: Progress = { start() {}, add() {}, done() {} };

const BAR_WIDTH = 24;
const REDRAW_MS = 100;

export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return "--:--";
  const s = Math.round(seconds);
  const mm = String(Math.floor(s / 60) % 60).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm}:${ss}` : `${mm}:${ss}`;
}

export function terminalProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  let name = "";
  let total = 0;
  let loaded = 0;
  let startedAt = 0;
  let drawnAt = 0;
  const draw = (final: boolean) => {
    const now = Date.now();
    if (!final && now - drawnAt < REDRAW_MS) return;
    drawnAt = now;
    const fraction = total > 0 ? Math.min(1, loaded / total) : 1;
    const filled = Math.round(fraction * BAR_WIDTH);
    const elapsed = Math.max(0.001, (now - startedAt) / 1000);
    const speed = loaded / elapsed;
    const left = speed > 0 ? (total - loaded) / speed : Number.POSITIVE_INFINITY;
    const line = `${name.slice(0, 30)} [${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${Math.floor(
      fraction * 100,
    )}% ${formatBytes(loaded)}/${formatBytes(total)} ${formatBytes(speed)}/s ${final ? formatSeconds(elapsed) : `${formatSeconds(left)} left`}`;
    stream.write(`\r${line}\x1b[K${final ? "\n" : ""}`);
  };
  return {
    start(n, t) {
      name = n;
      total = t;
      loaded = 0;
      startedAt = Date.now();
      drawnAt = 0;
      draw(false);
    },
    add(bytes) {
      loaded += bytes;
      draw(false);
    },
    done() {
      draw(true);
    },
  };
}
