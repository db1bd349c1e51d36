import type { TextFormat } from "../../lib/markdown/detect";

/** What the paste editor takes, whichever editor (plain or CodeMirror) shows it. */
export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  format: TextFormat;
  /** Accessible name of the text box. */
  label: string;
  placeholder?: string;
  autoFocus?: boolean;
  dark?: boolean;
}
