/** A row of labelled figures (label above, value below), as the admin cards show counts. */
export function FigureList({
  figures,
  className = "mt-2 grid grid-cols-3 gap-2",
}: {
  figures: Array<{ id: string; label: string; value: string }>;
  className?: string;
}) {
  return (
    <dl className={className}>
      {figures.map((f) => (
        <div key={f.id} className="min-w-0">
          <dt className="text-xs text-slate-500 dark:text-slate-400">{f.label}</dt>
          <dd className="font-semibold tabular-nums text-slate-900 dark:text-slate-50" data-figure={f.id}>
            {f.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
