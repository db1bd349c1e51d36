import { type PointerEvent as ReactPointerEvent, useEffect, useRef } from "react";
import { isLongPress, LONG_PRESS_MS, movedTooFar, type Point } from "../model/gesture";

/** Pointer handlers that open the menu after a 500 ms touch press that stayed within 10 px. */
export function useLongPress(onFire: (at: Point) => void) {
  const state = useRef<{ start: Point; at: number; timer: ReturnType<typeof setTimeout> } | null>(null);
  const fired = useRef(false);
  const cancel = () => {
    if (state.current) clearTimeout(state.current.timer);
    state.current = null;
  };
  useEffect(
    () => () => {
      if (state.current) clearTimeout(state.current.timer);
    },
    [],
  );
  return {
    onPointerDown: (e: ReactPointerEvent) => {
      if (e.pointerType !== "touch") return;
      cancel();
      fired.current = false;
      const start = { x: e.clientX, y: e.clientY };
      const at = Date.now();
      state.current = {
        start,
        at,
        timer: setTimeout(() => {
          if (state.current && isLongPress(state.current.at, Date.now())) {
            fired.current = true;
            state.current = null;
            onFire(start);
          }
        }, LONG_PRESS_MS),
      };
    },
    onPointerMove: (e: ReactPointerEvent) => {
      if (state.current && movedTooFar(state.current.start, { x: e.clientX, y: e.clientY })) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    /** A click that ends a long-press does not also select or open. */
    consumeFired: () => {
      const was = fired.current;
      fired.current = false;
      return was;
    },
  };
}
