import { useState } from "react";
import { useTranslation } from "../../../i18n";
import { cn } from "../../../lib/cn";
import {
  accessOf,
  answerSchema,
  errorAnswers,
  type HttpMethod,
  type OperationEntry,
  typeLabel,
} from "../model/openapi";
import { DocCode, DocText, SchemaView } from "./schema-view";

const METHOD_STYLE: Record<HttpMethod, string> = {
  get: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  post: "bg-indigo-100 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-200",
  put: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  patch: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  delete: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
};

function Heading({ children }: { children: React.ReactNode }) {
  return (
    <h4 className="mb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400">
      {children}
    </h4>
  );
}

/** One operation: method, path and summary; opened, who may call it, its parameters, body and answer. */
export function OperationView({ entry }: { entry: OperationEntry }) {
  const { t } = useTranslation();
  const { method, path, operation } = entry;
  const parameters = operation.parameters ?? [];
  const body = Object.entries(operation.requestBody?.content ?? {});
  const success = operation.responses["200"];
  const answers = Object.entries(success?.content ?? {});
  const permissions = operation["x-clipshare-permissions"];
  // The details are built when first opened: a hundred schema trees nobody looks at cost time.
  const [opened, setOpened] = useState(false);
  return (
    <details
      id={entry.id}
      onToggle={(e) => {
        if (e.currentTarget.open) setOpened(true);
      }}
      data-operation={`${method.toUpperCase()} ${path}`}
      className="group rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
    >
      <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
        <span
          translate="no"
          className={cn(
            "w-16 rounded px-1.5 py-0.5 text-center font-mono text-xs font-bold",
            METHOD_STYLE[method],
          )}
        >
          {method.toUpperCase()}
        </span>
        <DocCode className="text-sm font-medium text-slate-900 dark:text-slate-100">{path}</DocCode>
        {operation.summary ? (
          <DocText className="text-slate-600 dark:text-slate-400">{operation.summary}</DocText>
        ) : null}
      </summary>
      {opened ? (
        <div className="space-y-4 border-t border-slate-200 px-3 py-3 dark:border-slate-800">
          <p className="text-sm text-slate-700 dark:text-slate-300">
            {t(`apiDocs.access.${accessOf(operation)}`)}
          </p>
          {permissions ? (
            <p className="text-sm text-slate-700 dark:text-slate-300">
              {t(permissions.match === "any" ? "apiDocs.permissionsAny" : "apiDocs.permissionsAll")}{" "}
              <DocCode>
                {permissions.names.join(permissions.match === "any" ? " | " : " + ")} ({permissions.mask})
              </DocCode>
            </p>
          ) : null}
          <section>
            <Heading>{t("apiDocs.parameters")}</Heading>
            {parameters.length === 0 ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">{t("apiDocs.none")}</p>
            ) : (
              <ul className="space-y-1 text-sm">
                {parameters.map((p) => (
                  <li key={`${p.in}-${p.name}`} className="flex flex-wrap items-baseline gap-x-2">
                    <DocCode className="font-semibold text-slate-900 dark:text-slate-100">{p.name}</DocCode>
                    <span className="text-xs text-slate-600 dark:text-slate-400">
                      {t(`apiDocs.in.${p.in}`)}
                    </span>
                    <DocCode>{typeLabel(p.schema)}</DocCode>
                    {p.required ? (
                      <span className="text-xs text-amber-800 dark:text-amber-300">
                        {t("apiDocs.required")}
                      </span>
                    ) : null}
                    {p.schema?.description ? (
                      <DocText className="text-xs text-slate-600 dark:text-slate-400">
                        {p.schema.description}
                      </DocText>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </section>
          {body.length > 0 ? (
            <section>
              <Heading>{t("apiDocs.requestBody")}</Heading>
              {body.map(([type, media]) => (
                <div key={type} className="space-y-1">
                  <DocCode>{type}</DocCode>
                  <SchemaView schema={media.schema} />
                </div>
              ))}
            </section>
          ) : null}
          <section>
            <Heading>{t("apiDocs.answer")}</Heading>
            {answers.map(([type, media]) => {
              const { schema, enveloped } = answerSchema(media.schema);
              return (
                <div key={type} className="space-y-1">
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    <DocCode>{type}</DocCode> {enveloped ? t("apiDocs.enveloped") : null}
                  </p>
                  {type.includes("json") ? <SchemaView schema={schema} /> : null}
                </div>
              );
            })}
          </section>
          {errorAnswers(operation).length > 0 ? (
            <section>
              <Heading>{t("apiDocs.errorAnswers")}</Heading>
              <ul className="space-y-1 text-sm">
                {errorAnswers(operation).map(({ status, ids }) => (
                  <li key={status} className="flex flex-wrap items-baseline gap-x-2">
                    <DocCode className="font-semibold text-slate-900 dark:text-slate-100">{status}</DocCode>
                    <DocCode>{ids.join(", ")}</DocCode>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </div>
      ) : null}
    </details>
  );
}
