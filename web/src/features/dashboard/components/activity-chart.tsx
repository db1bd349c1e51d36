/**
 * Pastes and files created per day as grouped bars in plain SVG (no chart library: the
 * dashboard chunk stays small). Loaded lazily; the card around it carries the text alternative.
 */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../../../i18n";
import { type ActivityDay, chartScaleMax, dayLabel } from "../dashboard-model";

const HEIGHT = 200;
const PAD = { top: 12, right: 8, bottom: 24, left: 32 };
const GRIDLINES = 4;
/** Two bars per day, side by side; the legend in the card uses the same colours. */
const SERIES = [
  { key: "pastes", className: "fill-indigo-500 dark:fill-indigo-400" },
  { key: "files", className: "fill-emerald-500 dark:fill-emerald-400" },
] as const;

/** The element's current width, following resizes, so text is drawn at its real size. */
function useWidth<T extends HTMLElement>(fallback: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.max(160, Math.floor(entry.contentRect.width)));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

export default function ActivityChart({ days }: { days: ActivityDay[] }) {
  const { i18n } = useTranslation();
  const [ref, width] = useWidth<HTMLDivElement>(480);
  const max = chartScaleMax(days);
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, days.length);
  const bar = Math.max(3, Math.min(18, slot / 3));
  const y = (value: number) => PAD.top + plotH - (value / max) * plotH;

  return (
    <div ref={ref} className="w-full" data-testid="activity-chart">
      {/* The table next to the chart states the same figures for screen readers. */}
      <svg width={width} height={HEIGHT} aria-hidden="true" className="block">
        {Array.from({ length: GRIDLINES + 1 }, (_, i) => {
          const value = (max / GRIDLINES) * i;
          return (
            <g key={value}>
              <line
                x1={PAD.left}
                x2={width - PAD.right}
                y1={y(value)}
                y2={y(value)}
                className="stroke-slate-200 dark:stroke-slate-800"
                strokeWidth={1}
              />
              <text
                x={PAD.left - 6}
                y={y(value)}
                dy="0.32em"
                textAnchor="end"
                className="fill-slate-500 text-[11px] dark:fill-slate-400"
              >
                {value}
              </text>
            </g>
          );
        })}
        {days.map((day, i) => {
          const center = PAD.left + slot * i + slot / 2;
          return (
            <g key={day.date} data-date={day.date}>
              {SERIES.map((series, n) => (
                <rect
                  key={series.key}
                  x={n === 0 ? center - bar - 1 : center + 1}
                  y={y(day[series.key])}
                  width={bar}
                  height={Math.max(0, y(0) - y(day[series.key]))}
                  rx={2}
                  className={series.className}
                />
              ))}
              <text
                x={center}
                y={HEIGHT - 6}
                textAnchor="middle"
                className="fill-slate-500 text-[11px] dark:fill-slate-400"
              >
                {dayLabel(day.date, i18n.language)}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
