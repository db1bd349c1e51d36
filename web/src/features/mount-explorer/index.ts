// The mount explorer as other features use it: links into the explorer.
// (The page itself is loaded by the router.)
export { explorerHref } from "./model/paths";
