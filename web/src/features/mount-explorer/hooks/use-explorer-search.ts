import { type FormEvent, useEffect, useState } from "react";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { useErrorText } from "../../../lib/use-error-text";
import { fsApi, type SearchResult } from "../api/fs";
import { useSearchHistory } from "./use-search-history";

export type SearchScope = "global" | "mount" | "directory";
/** What a search looks for: "" for files and folders. */
export type SearchType = "" | "file" | "directory";

const SEARCH_MIN = 2;

/** The search box, its options and its results, which replace the listing while shown. */
export function useExplorerSearch(path: string, mountId: string | null | undefined) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const history = useSearchHistory();
  const [query, setQuery] = useState("");
  const [scope, setScope] = useState<SearchScope>("directory");
  const [searchType, setSearchType] = useState<SearchType>("");
  const [results, setResults] = useState<{ q: string; items: SearchResult[] } | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: results belong to the folder they were asked in
  useEffect(() => setResults(null), [path]);

  const submitSearch = async (e: FormEvent) => {
    e.preventDefault();
    const q = query.trim();
    if (q.length < SEARCH_MIN) {
      toast(t("explorer.searchMin", { count: SEARCH_MIN }), "info");
      return;
    }
    void history.remember(q);
    try {
      const data = await fsApi.search(q, scope, { path, mountId }, { type: searchType || undefined });
      setResults({ q, items: data.results });
    } catch (err) {
      toast(errorText(err), "error");
    }
  };

  const changeQuery = (value: string) => {
    setQuery(value);
    if (!value) setResults(null);
  };

  return {
    history,
    search: {
      query,
      changeQuery,
      scope,
      setScope,
      searchType,
      setSearchType,
      results,
      closeResults: () => setResults(null),
      submitSearch,
    },
  };
}
