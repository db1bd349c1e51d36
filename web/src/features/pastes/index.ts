// The pastes feature as other features use it: the paste API, links, the
// editor and viewer, the share-option fields and their form model. Heavy
// parts (the zod checks, the Markdown renderer) stay behind loaders so that
// importing this file adds nothing to a page that does not use them.
export * from "./api/pastes";
export { CodeEditor, type CodeEditorProps } from "./components/code-editor";
export { PasteContent } from "./components/paste-content";
export * from "./components/share-fields";
export { downloadText, openTextInNewTab } from "./download";
export { pasteLink } from "./links";
export * from "./markdown/detect";
export * from "./share-form-model";

/** The request-body checks (zod), in a chunk of their own. */
export const loadSchemaCheck = () => import("./schema-check");

/** The Markdown view (renderer and its styles), in a chunk of their own. */
export const loadMarkdownView = () => import("./components/markdown-view");
