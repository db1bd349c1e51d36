import { useQuery } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import { ContentSkeleton } from "../../../components/content-skeleton";
import { Alert } from "../../../components/ui/alert";
import { TextField } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { backendUrl } from "../../../lib/share-links";
import { groupByTag, type OpenApiDocument } from "../model/openapi";
import { OperationView } from "./operation-view";
import { DocCode, DocText } from "./schema-view";

const DOCUMENT_PATH = "/api/openapi.json";

async function fetchDocument(signal: AbortSignal): Promise<OpenApiDocument> {
  const res = await fetch(backendUrl(DOCUMENT_PATH), { signal });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return (await res.json()) as OpenApiDocument;
}

const tagAnchor = (tag: string) => `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

/** The API reference: /api/openapi.json grouped by tag, each operation with its parameters, body and answer. */
export function ApiDocsPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState("");
  const deferredFilter = useDeferredValue(filter);
  const doc = useQuery({
    queryKey: ["openapi-document"],
    queryFn: ({ signal }) => fetchDocument(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const groups = doc.data ? groupByTag(doc.data, deferredFilter) : [];
  const count = groups.reduce((sum, g) => sum + g.operations.length, 0);

  return (
    <div className="space-y-5">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">{t("apiDocs.title")}</h1>
        <p className="text-sm text-slate-600 dark:text-slate-400">{t("apiDocs.intro")}</p>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {t("apiDocs.envelope")} <DocCode>{"{ code, message, success, data }"}</DocCode>.{" "}
          {t("apiDocs.errors")} <DocCode>error</DocCode>.
        </p>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {t("apiDocs.auth")} <DocCode>POST /api/admin/login</DocCode> {t("apiDocs.authThen")}{" "}
          <DocCode>Authorization: Bearer TOKEN</DocCode> · <DocCode>Authorization: ApiKey KEY</DocCode>
        </p>
        <p className="text-sm">
          <a
            href={backendUrl(DOCUMENT_PATH)}
            download="clipshare-openapi.json"
            className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
          >
            {t("apiDocs.download")}{" "}
            <DocCode className="text-indigo-700 dark:text-indigo-300">openapi.json</DocCode>
          </a>
          {doc.data ? (
            <span className="ml-2 text-slate-600 dark:text-slate-400">
              <DocText>OpenAPI {doc.data.openapi}</DocText> ·{" "}
              {t("apiDocs.version", { version: doc.data.info.version })}
            </span>
          ) : null}
        </p>
      </header>

      {doc.isPending ? <ContentSkeleton lines={10} /> : null}
      {doc.isError ? <Alert>{t("apiDocs.loadFailed")}</Alert> : null}

      {doc.data ? (
        <>
          <TextField
            label={t("apiDocs.filter")}
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder={t("apiDocs.filterPlaceholder")}
            className="max-w-md"
          />
          <p className="text-sm text-slate-600 dark:text-slate-400" role="status">
            {t("apiDocs.count", { count })}
          </p>
          {groups.length > 0 ? (
            <nav aria-label={t("apiDocs.groups")} className="flex flex-wrap gap-2 text-sm">
              {groups.map(({ tag }) => (
                <a
                  key={tag}
                  href={`#${tagAnchor(tag)}`}
                  className="rounded-md border border-slate-200 px-2 py-1 text-slate-700 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800"
                >
                  <DocText>{tag}</DocText>
                </a>
              ))}
            </nav>
          ) : null}
          {groups.map(({ tag, operations }) => (
            <section key={tag} aria-labelledby={tagAnchor(tag)} className="space-y-2">
              <h2 id={tagAnchor(tag)} className="scroll-mt-20 text-lg font-semibold">
                <DocText>{tag}</DocText>
              </h2>
              {operations.map((entry) => (
                <OperationView key={entry.id} entry={entry} />
              ))}
            </section>
          ))}
        </>
      ) : null}
    </div>
  );
}
