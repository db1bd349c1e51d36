/** A locale file: nested sections whose leaves are texts. */
export type TextTree = { [key: string]: string | TextTree };

/** Values a text is filled with; `count` also picks the plural form. */
export interface TextOptions {
  count?: number;
  /** Shown (and filled) when the key has no text. */
  defaultValue?: string;
  [name: string]: unknown;
}

/** Adds every leaf of `tree` to `into` under its dotted key ("home.title"). */
export function flattenTexts(tree: TextTree, into: Map<string, string>, prefix = ""): void {
  for (const key in tree) {
    const value = tree[key]!;
    if (typeof value === "string") into.set(prefix + key, value);
    else flattenTexts(value, into, `${prefix}${key}.`);
  }
}

const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;

/**
 * The text of `key`: with a numeric `count`, the plural form the language's rules choose
 * (`key_one`, `key_other`...) before the plain key; else `defaultValue`, else the key itself.
 * `{{name}}` takes the option of that name as is (the app renders texts as text, never as
 * HTML); a placeholder without a matching option stays visible, so a missing value shows.
 */
export function formatText(
  texts: ReadonlyMap<string, string>,
  plurals: Intl.PluralRules,
  key: string,
  options?: TextOptions,
): string {
  const count = options?.count;
  const text =
    (typeof count === "number" ? texts.get(`${key}_${plurals.select(count)}`) : undefined) ??
    texts.get(key) ??
    options?.defaultValue ??
    key;
  if (!options) return text;
  return text.replace(PLACEHOLDER, (placeholder, name: string) =>
    Object.hasOwn(options, name) ? String(options[name] ?? "") : placeholder,
  );
}
