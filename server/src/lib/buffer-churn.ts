/**
 * Streams that pass large volumes through (an upload of a GiB arrives as
 * 16,000 socket buffers of 64 KiB) leave dead buffers behind faster than V8
 * collects them: the buffers live outside the JS heap, so they hardly move the
 * young-generation collector, and V8 waits for some 64 MB of them before a
 * full collection. glibc then keeps that high-water mark of its heap resident
 * for good (fragmentation pins it). A minor collection after every
 * `CHURN_COLLECT_BYTES` frees the dead buffers while the heap is still small;
 * it costs well under a millisecond, next to 8 MiB of disk writes.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export const CHURN_COLLECT_BYTES = 8 * 1024 * 1024;

type Collect = (options: { type: "minor" }) => void;
let collect: Collect | null | undefined;

function minorCollector(): Collect | null {
  if (collect === undefined) {
    try {
      // The flag exposes gc() in contexts created from now on; the app's own global stays without it.
      setFlagsFromString("--expose-gc");
      collect = runInNewContext("gc") as Collect;
    } catch {
      collect = null;
    }
  }
  return collect;
}

/** Counts bytes that passed; after each `CHURN_COLLECT_BYTES` runs a minor collection. */
export class BufferChurn {
  private sinceCollect = 0;

  passed(bytes: number): void {
    this.sinceCollect += bytes;
    if (this.sinceCollect < CHURN_COLLECT_BYTES) return;
    this.sinceCollect = 0;
    minorCollector()?.({ type: "minor" });
  }
}
