import { describe, expect, it } from "vitest";
import { aliasedJson, RESPONSE_ALIASES } from "./wire-aliases";

describe("response aliases", () => {
  it("an answer carries each aliased field it holds under its 0.7.3 name too, and no copy of an absent one", () => {
    const visit = {
      slug: "s",
      content: 'a "quoted" text',
      expires_at: null,
      max_views: 3,
      is_last_view: true,
    };
    expect(JSON.parse(aliasedJson(visit, RESPONSE_ALIASES.paste))).toEqual({
      ...visit,
      expiresAt: null,
      maxViews: 3,
      isLastView: true,
    });
  });

  it("every alias is a field's camelCase spelling, listed once per group", () => {
    for (const group of Object.values(RESPONSE_ALIASES)) {
      for (const [field, alias] of group.pairs)
        expect(alias).toBe(field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()));
      expect(new Set(group.pairs.map(([field]) => field)).size).toBe(group.pairs.length);
    }
  });
});
