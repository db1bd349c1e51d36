// The pastes feature as a page that shows a paste uses it: the paste API, links,
// the viewer and format detection. It holds no editor and no share-option form, so
// the shared-paste page neither loads them nor has the worker cache them for it.
export * from "./api/pastes";
export { FormatSwitch } from "./components/format-switch";
export { PasteContent } from "./components/paste-content";
export { downloadText, openTextInNewTab } from "./download";
export { pasteLink } from "./links";
export * from "./markdown/detect";

/** The Markdown view (renderer and its styles), in a chunk of their own. */
export const loadMarkdownView = () => import("./components/markdown-view");
