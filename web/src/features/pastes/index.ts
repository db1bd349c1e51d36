// The pastes feature as other features use it: what showing a paste needs
// (view.ts), plus the editor, the share-option fields and their form model. Heavy
// parts (the zod checks, the Markdown renderer) stay behind loaders so that
// importing this file adds nothing to a page that does not use them.
export { CodeEditor } from "./components/code-editor";
export { FormatSwitch } from "./components/format-switch";
export * from "./components/share-fields";
export type { CodeEditorProps } from "./editor/code-editor-props";
export * from "./share-form-model";
export * from "./view";

/** The request-body checks (zod), in a chunk of their own. */
export const loadSchemaCheck = () => import("./schema-check");
