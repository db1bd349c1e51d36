import type { TextTree } from "./texts";

/** Every leaf of a locale file under its dotted key ("home.title"), for the checks on the files. */
export function flattenTexts(
  tree: TextTree,
  into = new Map<string, string>(),
  prefix = "",
): Map<string, string> {
  for (const key in tree) {
    const value = tree[key]!;
    if (typeof value === "string") into.set(prefix + key, value);
    else flattenTexts(value, into, `${prefix}${key}.`);
  }
  return into;
}
