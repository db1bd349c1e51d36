/**
 * Finds the repository paths and links the docs name, and which of them lead nowhere.
 *
 * A path is a `code span` that looks like a file or folder of the tree. Docs name paths
 * relative to whatever folder the text is about (`http/serve-object.ts` under server/src,
 * `lib/offline/idb.ts` under web/src), so a path counts as found when some file or folder of
 * the tree ends with it. A span whose first folder is no folder of the tree (`DATA_DIR/files`,
 * `~/.config/...`), a URL or route (`/api/...`), a package name (`@clipshare/shared`), a build or
 * test output (`dist/`, `test-results/`) is not a repository path; without an extension or a
 * closing slash only paths from a top-level folder count (`fs/upload` is an API route).
 * `*` and `<name>` match within one path segment, `**` across folders; `{en,zh}` names each
 * alternative. A file name without a folder is checked only for source
 * extensions. Links `[text](target)` must reach a file, and a `#fragment` a heading of it.
 * Superseded decision records, and what follows `HISTORY_MARK` in a doc, are not checked.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

export interface DocRef {
  doc: string;
  line: number;
  ref: string;
}

/** Everything of the tree a doc may name: tracked files and new ones not ignored, with their folders. */
export interface RepoTree {
  files: string[];
  folderNames: Set<string>;
  entries: string[];
}

const SOURCE_EXTENSIONS = /\.(ts|tsx|mts|mjs|cjs|sh)$/;
const PATH_SHAPE = /^[A-Za-z0-9_.*\-[\]]+(\/[A-Za-z0-9_.*\-[\]]+)*\/?$/;
const HAS_EXTENSION = /\.[A-Za-z0-9]+$/;
const TOP_LEVEL = /^(server|web|packages|scripts|docs|deploy)\//;
const NOT_IN_TREE = new Set([
  "dist",
  "node_modules",
  ".tmp",
  "coverage",
  "test-results",
  "playwright-report",
]);
const SUPERSEDED = /^- Status: superseded/m;
/** Below this line a doc is history (figures of past builds): the files it names may be gone. */
export const HISTORY_MARK = "<!-- history: the paths below may name files that are gone -->";

export function repoTree(root: string): RepoTree {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  });
  const files = listed.split("\n").filter((file) => file && existsSync(path.join(root, file)));
  return treeOf(files);
}

export function treeOf(files: string[]): RepoTree {
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split("/");
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join("/"));
  }
  const folderNames = new Set([...folders].map((folder) => folder.split("/").pop()!));
  return { files, folderNames, entries: [...files, ...folders] };
}

/** `a/{x,y}.json` → `a/x.json`, `a/y.json`. */
function expandBraces(span: string): string[] {
  const match = /\{([^{}]*)\}/.exec(span);
  if (!match) return [span];
  return (match[1] ?? "")
    .split(",")
    .flatMap((choice) =>
      expandBraces(span.slice(0, match.index) + choice + span.slice(match.index + match[0].length)),
    );
}

/** The repository paths a code span names, or none when it is not a path. */
export function pathsInSpan(span: string, tree: RepoTree): string[] {
  const text = span.trim().replace(/<[^<>/]+>/g, "*");
  return expandBraces(text).filter((candidate) => {
    if (!PATH_SHAPE.test(candidate) || candidate.startsWith(".") || candidate.startsWith("*")) return false;
    const segments = candidate.replace(/\/$/, "").split("/");
    const first = segments[0] ?? "";
    if (segments.some((segment) => NOT_IN_TREE.has(segment))) return false;
    if (segments.length === 1) return SOURCE_EXTENSIONS.test(candidate);
    // Without an extension or a closing slash, `fs/upload` is as likely an API route as a folder.
    if (TOP_LEVEL.test(candidate) || HAS_EXTENSION.test(candidate) || candidate.endsWith("/")) {
      return tree.folderNames.has(first) || tree.entries.includes(first);
    }
    return false;
  });
}

const escapeRegExp = (text: string) => text.replace(/[.+?^$()|[\]\\]/g, "\\$&");

/** Some file or folder of the tree ends with the path; `**` spans folders, `*` stays in one. */
export function pathExists(candidate: string, tree: RepoTree): boolean {
  const body = candidate
    .replace(/\/$/, "")
    .split("**")
    .map((part) => part.split("*").map(escapeRegExp).join("[^/]*"))
    .join(".*");
  const pattern = new RegExp(`(^|/)${body}$`);
  return tree.entries.some((entry) => pattern.test(entry));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let inFence = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) inFence = !inFence;
    const heading = !inFence && /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) anchors.add(headingAnchor(heading[1] ?? ""));
  }
  return anchors;
}

/** Paths and links of one doc (given relative to the root) that lead nowhere. */
export function brokenRefs(root: string, doc: string, tree: RepoTree): DocRef[] {
  const [text = ""] = readFileSync(path.join(root, doc), "utf8").split(HISTORY_MARK);
  if (SUPERSEDED.test(text)) return [];
  const broken: DocRef[] = [];
  let inFence = false;
  text.split("\n").forEach((line, index) => {
    if (line.startsWith("```")) inFence = !inFence;
    if (inFence) return;
    const at = (ref: string) => broken.push({ doc, line: index + 1, ref });
    for (const [, span = ""] of line.matchAll(/`([^`]+)`/g)) {
      for (const candidate of pathsInSpan(span, tree)) if (!pathExists(candidate, tree)) at(candidate);
    }
    for (const [, target = ""] of line.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [file, fragment] = target.split("#");
      const resolved = file ? path.join(path.dirname(doc), file) : doc;
      if (!existsSync(path.join(root, resolved))) at(target);
      else if (fragment && resolved.endsWith(".md")) {
        const anchors = anchorsOf(readFileSync(path.join(root, resolved), "utf8"));
        if (!anchors.has(fragment)) at(target);
      }
    }
  });
  return broken;
}
