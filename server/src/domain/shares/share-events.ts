/**
 * What happens to shares that others want to know about (notifications):
 * the first view a share ever counted, and the view that used its last one.
 * ShareAccess reports every counted view here; listeners run off the request
 * path (their promise is not awaited, a failure is only logged), so a view
 * never waits on them.
 */
import type { Logger } from "../../logger";
import type { VisitKind } from "./access-tokens";

export type ShareMoment = "opened" | "last_view";

/** What a counted view says of its share (the row after counting). */
export interface CountedShare {
  id: string;
  views: number;
  max_views: number | null;
}

export type ShareListener = (moment: ShareMoment, kind: VisitKind, row: CountedShare) => Promise<void>;

export class ShareEvents {
  private readonly listeners: ShareListener[] = [];

  constructor(private readonly log: Logger) {}

  listen(listener: ShareListener): void {
    this.listeners.push(listener);
  }

  /** A view was counted; `row` is the share after counting. */
  counted(kind: VisitKind, row: CountedShare): void {
    if (this.listeners.length === 0) return;
    if (row.views === 1) this.emit("opened", kind, row);
    if (row.max_views !== null && row.views === row.max_views) this.emit("last_view", kind, row);
  }

  private emit(moment: ShareMoment, kind: VisitKind, row: CountedShare): void {
    for (const listener of this.listeners)
      listener(moment, kind, row).catch((err: unknown) =>
        this.log.warn({ err, kind, id: row.id, moment }, "A share event listener failed"),
      );
  }
}
