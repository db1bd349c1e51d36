/**
 * In-process counters for Prometheus (GET /metrics). Recording is meant for
 * the hot path: label sets are fixed and their slots preallocated, so a
 * request costs a few typed-array increments and no string is built until a
 * scrape formats the text exposition format (version 0.0.4).
 */

/** Route groups requests are counted under (by path prefix, first match). */
export const ROUTE_GROUPS = [
  "paste",
  "files",
  "fs",
  "file_download",
  "proxy",
  "admin",
  "auth",
  "webdav",
  "metrics",
  "other_api",
  "web",
] as const;
export type RouteGroup = (typeof ROUTE_GROUPS)[number];

const PREFIXES: Array<[string, number]> = [
  ["/api/paste", 0],
  ["/api/raw/", 0],
  ["/api/files", 1],
  ["/api/upload", 1],
  ["/api/s3/", 1],
  ["/api/public/files/", 1],
  ["/api/share-delete/", 1],
  ["/api/fs/", 2],
  ["/api/file-view/", 3],
  ["/api/file-download/", 3],
  ["/api/p/", 4],
  ["/api/admin/", 5],
  ["/api/test/", 6],
  ["/dav", 7],
  ["/metrics", 8],
  ["/api/", 9],
];
const WEB_GROUP = ROUTE_GROUPS.length - 1;

export function routeGroupIndex(path: string): number {
  for (const [prefix, index] of PREFIXES) if (path.startsWith(prefix)) return index;
  return WEB_GROUP;
}

const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;
/** Request duration buckets, seconds. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];
export const STORAGE_TYPES = ["LOCAL", "S3"] as const;
export const THUMBNAIL_RESULTS = ["hit", "generated", "refused"] as const;

const G = ROUTE_GROUPS.length;
const B = LATENCY_BUCKETS.length;

export class Metrics {
  readonly startedAt = Date.now() / 1000;
  private readonly requests = new Float64Array(G * STATUS_CLASSES.length);
  private readonly latencyBuckets = new Float64Array(G * B);
  private readonly latencySum = new Float64Array(G);
  private readonly latencyCount = new Float64Array(G);
  private readonly bytesIn = new Float64Array(G);
  private readonly bytesOut = new Float64Array(G);
  private readonly uploads = new Float64Array(STORAGE_TYPES.length);
  private readonly uploadBytes = new Float64Array(STORAGE_TYPES.length);
  private readonly downloads = new Float64Array(STORAGE_TYPES.length);
  private readonly views = new Float64Array(3);
  private rateLimited = 0;
  private readonly thumbnails = new Float64Array(THUMBNAIL_RESULTS.length);

  /** One finished request: its path, status, duration and the declared body sizes. */
  request(path: string, status: number, seconds: number, bytesIn: number, bytesOut: number): void {
    const g = routeGroupIndex(path);
    const cls = Math.min(4, Math.max(0, Math.floor(status / 100) - 1));
    this.requests[g * STATUS_CLASSES.length + cls]!++;
    let b = 0;
    while (b < B && seconds > LATENCY_BUCKETS[b]!) b++;
    if (b < B) this.latencyBuckets[g * B + b]!++;
    this.latencySum[g]! += seconds;
    this.latencyCount[g]!++;
    if (bytesIn > 0) this.bytesIn[g]! += bytesIn;
    if (bytesOut > 0) this.bytesOut[g]! += bytesOut;
  }

  upload(storageType: string, bytes: number): void {
    const s = storageType === "S3" ? 1 : 0;
    this.uploads[s]!++;
    this.uploadBytes[s]! += bytes;
  }

  download(storageType: string): void {
    this.downloads[storageType === "S3" ? 1 : 0]!++;
  }

  view(kind: "paste" | "file" | "collection"): void {
    this.views[kind === "paste" ? 0 : kind === "file" ? 1 : 2]!++;
  }

  rateLimitRefused(): void {
    this.rateLimited++;
  }

  thumbnail(result: (typeof THUMBNAIL_RESULTS)[number]): void {
    this.thumbnails[THUMBNAIL_RESULTS.indexOf(result)]!++;
  }

  /** Text exposition of everything recorded here, plus `extra` lines gathered at scrape time. */
  render(extra: MetricFamily[] = []): string {
    const out: string[] = [];
    const families: MetricFamily[] = [
      family(
        "clipshare_http_requests_total",
        "counter",
        "HTTP requests by route group and status class",
        (add) => {
          for (let g = 0; g < G; g++)
            for (let c = 0; c < STATUS_CLASSES.length; c++) {
              const v = this.requests[g * STATUS_CLASSES.length + c]!;
              if (v > 0) add({ group: ROUTE_GROUPS[g]!, status: STATUS_CLASSES[c]! }, v);
            }
        },
      ),
      family(
        "clipshare_http_request_bytes_total",
        "counter",
        "Request body bytes received (as declared by Content-Length)",
        (add) => {
          for (let g = 0; g < G; g++)
            if (this.bytesIn[g]! > 0) add({ group: ROUTE_GROUPS[g]! }, this.bytesIn[g]!);
        },
      ),
      family(
        "clipshare_http_response_bytes_total",
        "counter",
        "Response body bytes sent (as declared by Content-Length)",
        (add) => {
          for (let g = 0; g < G; g++)
            if (this.bytesOut[g]! > 0) add({ group: ROUTE_GROUPS[g]! }, this.bytesOut[g]!);
        },
      ),
      family("clipshare_uploads_total", "counter", "File shares published, by storage type", (add) => {
        for (const [i, s] of STORAGE_TYPES.entries()) add({ storage: s }, this.uploads[i]!);
      }),
      family(
        "clipshare_upload_bytes_total",
        "counter",
        "Bytes of published file shares, by storage type",
        (add) => {
          for (const [i, s] of STORAGE_TYPES.entries()) add({ storage: s }, this.uploadBytes[i]!);
        },
      ),
      family(
        "clipshare_downloads_total",
        "counter",
        "File share downloads started, by storage type",
        (add) => {
          for (const [i, s] of STORAGE_TYPES.entries()) add({ storage: s }, this.downloads[i]!);
        },
      ),
      family("clipshare_views_total", "counter", "Share views counted", (add) => {
        add({ kind: "paste" }, this.views[0]!);
        add({ kind: "file" }, this.views[1]!);
        add({ kind: "collection" }, this.views[2]!);
      }),
      family(
        "clipshare_rate_limit_refusals_total",
        "counter",
        "Password checks refused by a rate limit (429)",
        (add) => add({}, this.rateLimited),
      ),
      family(
        "clipshare_thumbnails_total",
        "counter",
        "Thumbnail requests: served from the cache, generated, or refused",
        (add) => {
          for (const [i, result] of THUMBNAIL_RESULTS.entries()) add({ result }, this.thumbnails[i]!);
        },
      ),
      ...extra,
    ];
    for (const f of families) writeFamily(out, f);
    writeHistogram(out, this);
    return `${out.join("\n")}\n`;
  }

  /** For the histogram writer: per group, cumulative bucket counts, sum and count. */
  latency(g: number) {
    let cumulative = 0;
    const buckets: number[] = [];
    for (let b = 0; b < B; b++) {
      cumulative += this.latencyBuckets[g * B + b]!;
      buckets.push(cumulative);
    }
    return { buckets, sum: this.latencySum[g]!, count: this.latencyCount[g]! };
  }
}

export interface MetricFamily {
  name: string;
  type: "counter" | "gauge";
  help: string;
  samples: Array<{ labels: Record<string, string>; value: number }>;
}

export function family(
  name: string,
  type: MetricFamily["type"],
  help: string,
  fill: (add: (labels: Record<string, string>, value: number) => void) => void,
): MetricFamily {
  const samples: MetricFamily["samples"] = [];
  fill((labels, value) => samples.push({ labels, value }));
  return { name, type, help, samples };
}

const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');

function labelText(labels: Record<string, string>): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return parts.length ? `{${parts.join(",")}}` : "";
}

function writeFamily(out: string[], f: MetricFamily): void {
  out.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`);
  for (const s of f.samples) out.push(`${f.name}${labelText(s.labels)} ${s.value}`);
}

function writeHistogram(out: string[], metrics: Metrics): void {
  const name = "clipshare_http_request_duration_seconds";
  out.push(`# HELP ${name} Request duration by route group`, `# TYPE ${name} histogram`);
  for (let g = 0; g < G; g++) {
    const { buckets, sum, count } = metrics.latency(g);
    if (count === 0) continue;
    const group = ROUTE_GROUPS[g]!;
    for (const [b, le] of LATENCY_BUCKETS.entries())
      out.push(`${name}_bucket{group="${group}",le="${le}"} ${buckets[b]}`);
    out.push(`${name}_bucket{group="${group}",le="+Inf"} ${count}`);
    out.push(`${name}_sum{group="${group}"} ${sum}`, `${name}_count{group="${group}"} ${count}`);
  }
}

/** The process's own numbers, read at scrape time. */
export function processFamilies(startedAt: number, eventLoopDelayP99Seconds: number): MetricFamily[] {
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  return [
    family("process_cpu_seconds_total", "counter", "User and system CPU time", (add) =>
      add({}, (cpu.user + cpu.system) / 1e6),
    ),
    family("process_resident_memory_bytes", "gauge", "Resident memory", (add) => add({}, memory.rss)),
    family("nodejs_heap_used_bytes", "gauge", "V8 heap in use", (add) => add({}, memory.heapUsed)),
    family("nodejs_external_memory_bytes", "gauge", "Memory held outside the V8 heap (buffers)", (add) =>
      add({}, memory.external),
    ),
    family("process_start_time_seconds", "gauge", "Start time, Unix seconds", (add) => add({}, startedAt)),
    family("nodejs_eventloop_delay_p99_seconds", "gauge", "Event loop delay, 99th percentile", (add) =>
      add({}, eventLoopDelayP99Seconds),
    ),
  ];
}

/** The one instance of this process: recorded from anywhere, served by GET /metrics. */
export const metrics = new Metrics();
