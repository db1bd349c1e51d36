import { useEffect, useRef, useState } from "react";
import type { TextFormat } from "../../../lib/markdown/detect";
import { type SaveResult, saveDraft } from "../draft-storage";

const SAVE_DELAY_MS = 500;

/**
 * Saves the draft half a second after the last change, and at once when the
 * editor goes away (following "Sign in" must not lose the last keystrokes);
 * tells how the last save went.
 */
export function useDraftAutosave(
  draft: { content: string; format: TextFormat; remark: string },
  enabled: boolean,
): SaveResult | null {
  const [status, setStatus] = useState<SaveResult | null>(null);
  const { content, format, remark } = draft;
  const unsaved = useRef<typeof draft | null>(null);
  useEffect(() => {
    if (!enabled) return;
    unsaved.current = { content, format, remark };
    const timer = setTimeout(() => {
      unsaved.current = null;
      setStatus(saveDraft({ content, format, remark }));
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [content, format, remark, enabled]);
  useEffect(
    () => () => {
      if (unsaved.current) saveDraft(unsaved.current);
    },
    [],
  );
  return status;
}
