import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import {
  bracketMatching,
  defaultHighlightStyle,
  indentOnInput,
  syntaxHighlighting,
} from "@codemirror/language";
import { Compartment, EditorState, type Extension } from "@codemirror/state";
import { oneDark } from "@codemirror/theme-one-dark";
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  placeholder as placeholderText,
} from "@codemirror/view";
import { useEffect, useRef } from "react";
import type { CodeEditorProps } from "./code-editor-props";
import { markdownSupport } from "./markdown-language";

/**
 * The CodeMirror 6 editor behind <CodeEditor>. Its own chunk: only pages that
 * edit text load it. Languages of fenced code blocks load on demand.
 */

const baseTheme = EditorView.theme({
  "&": { height: "100%", fontSize: "0.875rem", backgroundColor: "transparent" },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": {
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
    lineHeight: "1.6",
  },
  ".cm-content": { padding: "0.75rem 0" },
  ".cm-gutters": { backgroundColor: "transparent", borderRight: "none" },
});

const lightTheme = EditorView.theme(
  {
    // Slate 600 line numbers: readable (over 4.5:1) on white and on the tinted active line.
    ".cm-gutters": { color: "#475569" },
    // Slate 600: CodeMirror's own grey (#888) is below 4.5:1 on the tinted active line; the extra class outranks its base rule.
    "&.cm-editor .cm-placeholder": { color: "#475569" },
    ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "rgba(99, 102, 241, 0.06)" },
  },
  { dark: false },
);

/** One Dark's token colours on the app's own dark surface. */
const darkTheme: Extension = [
  oneDark,
  EditorView.theme(
    {
      "&": { backgroundColor: "transparent" },
      ".cm-gutters": { backgroundColor: "transparent", color: "#94a3b8" },
      "&.cm-editor .cm-placeholder": { color: "#94a3b8" },
      ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "rgba(148, 163, 184, 0.08)" },
    },
    { dark: true },
  ),
];

function languageFor(format: CodeEditorProps["format"]): Extension {
  return format === "markdown" ? markdownSupport : [];
}

export default function CodeMirrorEditor({
  value,
  onChange,
  format,
  dark,
  label,
  placeholder,
  autoFocus,
}: CodeEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  /** The text last sent up, so a re-render with it does not replace the document. */
  const lastValueRef = useRef(value);
  const compartments = useRef({ language: new Compartment(), theme: new Compartment() });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the view is created once; later props are applied below
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const { language, theme } = compartments.current;
    const view = new EditorView({
      parent: host,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          highlightActiveLine(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          EditorView.lineWrapping,
          placeholderText(placeholder ?? ""),
          EditorView.contentAttributes.of({ "aria-label": label, "aria-multiline": "true" }),
          baseTheme,
          theme.of(dark ? darkTheme : lightTheme),
          language.of(languageFor(format)),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return;
            const text = update.state.doc.toString();
            lastValueRef.current = text;
            onChangeRef.current(text);
          }),
        ],
      }),
    });
    viewRef.current = view;
    if (autoFocus) view.focus();
    return () => {
      view.destroy();
      viewRef.current = null;
    };
  }, []);

  // A new text from outside (file import, restored draft, reset after sharing).
  useEffect(() => {
    const view = viewRef.current;
    if (!view || value === lastValueRef.current) return;
    lastValueRef.current = value;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    viewRef.current?.dispatch({
      effects: compartments.current.language.reconfigure(languageFor(format)),
    });
  }, [format]);

  useEffect(() => {
    viewRef.current?.dispatch({
      effects: compartments.current.theme.reconfigure(dark ? darkTheme : lightTheme),
    });
  }, [dark]);

  return <div ref={hostRef} className="h-full" data-editor="codemirror" />;
}
