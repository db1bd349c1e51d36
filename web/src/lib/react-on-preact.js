// What `import … from "react"` resolves to (web/scripts/preact-aliases.mjs): Preact's compat
// layer with one change. Its `useId` counts per render root, and a portal (every Radix dialog,
// menu and popover) starts a new root each time it renders again, so a field that appears in an
// open dialog could get the id of another field and its label would name the wrong control.
// Here an id is taken from one counter for the whole page, once per component.
import compat, { useState } from "preact/compat";

export * from "preact/compat";

let lastId = 0;

export function useId() {
  const [id] = useState(() => `:c${(++lastId).toString(36)}:`);
  return id;
}

export default { ...compat, useId };
