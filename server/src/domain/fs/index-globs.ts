/**
 * The include/exclude lists of an indexed mount: globs over mount-relative
 * paths. `*` and `?` stay inside one path segment, `**` crosses segments; a
 * pattern without "/" matches the name at any depth (`*.tmp`, `node_modules`).
 * An excluded folder is not entered; an include list, when given, admits only
 * matching files (folders are kept so their contents can match).
 */
export interface IndexFilter {
  /** True when the entry at `path` belongs in the index. */
  admits(path: string, isDirectory: boolean): boolean;
}

export function parseGlobList(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

export function indexFilter(include: string, exclude: string): IndexFilter {
  const includes = parseGlobList(include).map(globMatcher);
  const excludes = parseGlobList(exclude).map(globMatcher);
  return {
    admits(path, isDirectory) {
      if (excludes.some((m) => m(path))) return false;
      if (isDirectory || includes.length === 0) return true;
      return includes.some((m) => m(path));
    },
  };
}

export function globMatcher(glob: string): (path: string) => boolean {
  const anchored = glob.includes("/");
  const body = glob.replace(/^\/+/, "");
  let source = "";
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch === "*" && body[i + 1] === "*") {
      // "**/" matches zero or more whole segments; a trailing "**" everything below.
      if (body[i + 2] === "/") {
        source += "(?:.*/)?";
        i += 2;
      } else {
        source += ".*";
        i += 1;
      }
    } else if (ch === "*") source += "[^/]*";
    else if (ch === "?") source += "[^/]";
    else source += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  const re = new RegExp(anchored ? `^${source}$` : `(?:^|/)${source}$`);
  return (path) => re.test(path);
}
