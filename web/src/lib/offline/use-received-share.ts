import { useEffect, useRef } from "react";
import { useSearchParams } from "react-router";
import type { ReceivedShare } from "./share-target";
import { SHARE_PARAM } from "./sw-protocol";

/**
 * A page opened by the share target (`?share-target=<id>`): hands the share to
 * `onShare` once (null when nothing could be received) and drops the parameter.
 */
export function useReceivedShare(onShare: (share: ReceivedShare | null) => void): void {
  const [search, setSearch] = useSearchParams();
  const shareId = search.get(SHARE_PARAM);
  const handler = useRef(onShare);
  handler.current = onShare;

  useEffect(() => {
    if (!shareId) return;
    let active = true;
    void import("./share-target")
      .then((m) => m.takeShare(shareId))
      .catch(() => null)
      .then((share) => {
        if (!active) return;
        handler.current(share);
        setSearch(
          (params) => {
            params.delete(SHARE_PARAM);
            return params;
          },
          { replace: true, preventScrollReset: true },
        );
      });
    return () => {
      active = false;
    };
  }, [shareId, setSearch]);
}
