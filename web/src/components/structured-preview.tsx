import Papa from "papaparse";
import { type ReactNode, useMemo, useState } from "react";
import { useTranslation } from "../i18n";
import { Segmented } from "./segmented";

/**
 * Structured previews of text files: CSV/TSV as a table, JSON as a tree that folds.
 * `dataFormat` says whether a file has one; the text view stays one click away
 * (the table or tree is the default). Large files show their first rows/items only.
 */
export type DataFormat = "csv" | "tsv" | "json";

/** Rows and child items shown at most; the text view shows everything. */
export const DATA_VIEW_MAX_ROWS = 1000;

export function dataFormat(filename: string, mimetype?: string | null): DataFormat | null {
  const name = filename.toLowerCase();
  const type = (mimetype ?? "").split(";")[0]!.trim().toLowerCase();
  if (name.endsWith(".csv") || type === "text/csv") return "csv";
  if (name.endsWith(".tsv") || type === "text/tab-separated-values") return "tsv";
  if (name.endsWith(".json") || type === "application/json") return "json";
  return null;
}

/** The table or tree of `text`, with a switch to the plain text (`plain`). */
export function StructuredPreview({
  text,
  format,
  plain,
}: {
  text: string;
  format: DataFormat;
  plain: ReactNode;
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<"data" | "text">("data");
  const structured = useMemo(
    () => (format === "json" ? parseJson(text) : parseTable(text, format)),
    [text, format],
  );
  if (!structured.ok) return <>{plain}</>;
  return (
    <div className="flex flex-col gap-2" data-testid="data-view">
      <Segmented
        label={t("dataView.label")}
        value={mode}
        onChange={setMode}
        options={[
          { value: "data", label: format === "json" ? t("dataView.tree") : t("dataView.table") },
          { value: "text", label: t("dataView.text") },
        ]}
      />
      {mode === "text" ? (
        plain
      ) : format === "json" ? (
        <div className="max-h-[70vh] overflow-auto rounded-xl border border-slate-200 bg-slate-50 p-3 font-mono text-[13px] text-slate-800 dark:border-slate-800 dark:bg-slate-950 dark:text-slate-200">
          <JsonNode name={null} value={(structured as { value: unknown }).value} depth={0} />
        </div>
      ) : (
        <Table
          rows={(structured as { rows: string[][] }).rows}
          total={(structured as { total: number }).total}
        />
      )}
    </div>
  );
}

type Parsed = { ok: true; value: unknown } | { ok: true; rows: string[][]; total: number } | { ok: false };

function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function parseTable(text: string, format: DataFormat): Parsed {
  const result = Papa.parse<string[]>(text, {
    delimiter: format === "tsv" ? "\t" : "",
    skipEmptyLines: true,
    preview: DATA_VIEW_MAX_ROWS + 1,
  });
  if (result.data.length === 0) return { ok: false };
  const rows = result.data.slice(0, DATA_VIEW_MAX_ROWS + 1);
  return { ok: true, rows, total: rows.length };
}

function Table({ rows, total }: { rows: string[][]; total: number }) {
  const { t } = useTranslation();
  // Rows and cells have no identity but their place: number them once for React's keys.
  const keyed = rows.map((cells, row) => ({ row, cells: cells.map((text, col) => ({ col, text })) }));
  const [head, ...body] = keyed;
  const shown = body.slice(0, DATA_VIEW_MAX_ROWS - 1);
  return (
    <div className="max-h-[70vh] overflow-auto rounded-xl border border-slate-200 dark:border-slate-800">
      <table className="w-full border-collapse text-left text-[13px] text-slate-800 dark:text-slate-200">
        <thead className="sticky top-0 bg-slate-100 dark:bg-slate-900">
          <tr>
            {head!.cells.map((cell) => (
              <th
                key={cell.col}
                scope="col"
                className="border-b border-slate-200 px-2 py-1 font-semibold dark:border-slate-800"
              >
                {cell.text}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <tr
              key={row.row}
              className="odd:bg-white even:bg-slate-50 dark:odd:bg-slate-950 dark:even:bg-slate-900"
            >
              {row.cells.map((cell) => (
                <td key={cell.col} className="whitespace-pre-wrap break-words px-2 py-1 align-top">
                  {cell.text}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {total > DATA_VIEW_MAX_ROWS ? (
        <p className="p-2 text-xs text-slate-500 dark:text-slate-400">
          {t("dataView.firstRows", { count: DATA_VIEW_MAX_ROWS - 1 })}
        </p>
      ) : null}
    </div>
  );
}

/** One value of the JSON tree; objects and arrays fold (open to the second level). */
function JsonNode({ name, value, depth }: { name: string | null; value: unknown; depth: number }) {
  const { t } = useTranslation();
  const label = name === null ? null : <span className="text-sky-700 dark:text-sky-300">{name}: </span>;
  if (value === null || typeof value !== "object") {
    const color =
      typeof value === "string"
        ? "text-emerald-700 dark:text-emerald-300"
        : typeof value === "number"
          ? "text-amber-700 dark:text-amber-300"
          : "text-violet-700 dark:text-violet-300";
    return (
      <div className="break-words pl-4">
        {label}
        <span className={color}>{JSON.stringify(value)}</span>
      </div>
    );
  }
  const entries = Array.isArray(value)
    ? value.map((v, i) => [String(i), v] as const)
    : Object.entries(value as Record<string, unknown>);
  const shown = entries.slice(0, DATA_VIEW_MAX_ROWS);
  const brackets = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return (
    <details open={depth < 2} className="pl-4">
      <summary className="cursor-pointer select-none">
        {label}
        <span className="text-slate-500 dark:text-slate-400">
          {brackets[0]}
          {t("dataView.items", { count: entries.length })}
          {brackets[1]}
        </span>
      </summary>
      {shown.map(([key, child]) => (
        <JsonNode key={key} name={key} value={child} depth={depth + 1} />
      ))}
      {entries.length > shown.length ? (
        <div className="pl-4 text-xs text-slate-500 dark:text-slate-400">
          {t("dataView.moreItems", { count: entries.length - shown.length })}
        </div>
      ) : null}
    </details>
  );
}
