import { lazy, Suspense } from "react";
import { cn } from "../../lib/cn";
import { useTheme } from "../../lib/theme";
import type { CodeEditorProps } from "./code-editor-props";

const CodeMirrorEditor = lazy(() => import("./codemirror-editor"));

/**
 * A text editor with Markdown syntax colouring (CodeMirror 6, loaded lazily).
 * Until its code arrives a plain text area of the same size takes the input,
 * so typing can start at once and the page does not jump.
 */
export function CodeEditor({ className, ...props }: Omit<CodeEditorProps, "dark"> & { className?: string }) {
  const { resolved } = useTheme();
  const dark = resolved === "dark";
  return (
    <div
      className={cn(
        "overflow-hidden rounded-xl border border-slate-300 bg-white focus-within:border-indigo-500 focus-within:ring-2 focus-within:ring-indigo-500/30",
        "dark:border-slate-700 dark:bg-slate-950",
        className,
      )}
    >
      <Suspense
        fallback={
          <textarea
            aria-label={props.label}
            value={props.value}
            placeholder={props.placeholder}
            onChange={(e) => props.onChange(e.target.value)}
            spellCheck={false}
            className="block h-full w-full resize-none bg-transparent px-4 py-3 font-mono text-sm leading-relaxed text-slate-900 outline-none dark:text-slate-100"
          />
        }
      >
        <CodeMirrorEditor {...props} dark={dark} />
      </Suspense>
    </div>
  );
}
