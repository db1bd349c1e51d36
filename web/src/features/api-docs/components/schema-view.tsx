import type { ReactNode } from "react";
import { useTranslation } from "../../../i18n";
import { cn } from "../../../lib/cn";
import { type JsonSchema, objectProperties, typeLabel } from "../model/openapi";

/** Nesting shown before a property's own fields are left at their type. */
const MAX_DEPTH = 5;

/** Text from the API document: English, and not for translation tools (the page's chrome is translated). */
export function DocText({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <span lang="en" translate="no" className={className}>
      {children}
    </span>
  );
}

export function DocCode({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <code translate="no" className={cn("text-xs text-slate-700 dark:text-slate-300", className)}>
      {children}
    </code>
  );
}

/** A schema as a nested list of fields: name, type, whether it is required, and its description. */
export function SchemaView({ schema, depth = 0 }: { schema: JsonSchema | undefined; depth?: number }) {
  const { t } = useTranslation();
  const object = objectProperties(schema);
  if (!object?.properties || Object.keys(object.properties).length === 0 || depth >= MAX_DEPTH)
    return <DocCode>{typeLabel(schema)}</DocCode>;
  const required = new Set(object.required ?? []);
  return (
    <>
      {object !== schema ? <DocCode>{typeLabel(schema)}</DocCode> : null}
      <ul className="space-y-1 border-l border-slate-200 pl-3 text-sm dark:border-slate-700">
        {Object.entries(object.properties).map(([name, property]) => {
          const nested = objectProperties(property);
          return (
            <li key={name}>
              <span className="flex flex-wrap items-baseline gap-x-2">
                <DocCode className="font-semibold text-slate-900 dark:text-slate-100">{name}</DocCode>
                {nested ? null : <DocCode>{typeLabel(property)}</DocCode>}
                {required.has(name) ? (
                  <span className="text-xs text-amber-800 dark:text-amber-300">{t("apiDocs.required")}</span>
                ) : null}
                {property.description ? (
                  <DocText className="text-xs text-slate-600 dark:text-slate-400">
                    {property.description}
                  </DocText>
                ) : null}
              </span>
              {nested ? (
                <div className="mt-1">
                  <SchemaView schema={property} depth={depth + 1} />
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}
