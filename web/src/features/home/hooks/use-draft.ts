import { useEffect, useState } from "react";
import type { TextFormat } from "../../pastes";
import { type SaveResult, saveDraft } from "../draft-storage";

const SAVE_DELAY_MS = 500;

/** Saves the draft half a second after the last change; tells how the last save went. */
export function useDraftAutosave(
  draft: { content: string; format: TextFormat; remark: string },
  enabled: boolean,
): SaveResult | null {
  const [status, setStatus] = useState<SaveResult | null>(null);
  const { content, format, remark } = draft;
  useEffect(() => {
    if (!enabled) return;
    const timer = setTimeout(() => setStatus(saveDraft({ content, format, remark })), SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [content, format, remark, enabled]);
  return status;
}
