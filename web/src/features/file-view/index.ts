// The file view as other features use it: the preview of a file, in a chunk of its own.
export const loadFilePreview = () => import("./components/file-preview");
