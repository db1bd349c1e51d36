import { ProgressBar } from "./progress-bar";

/**
 * How full a quota is (0-100), turning amber from 70% and red from 90% so a nearly full
 * storage stands out.
 */
export function UsageMeter({ percent, label }: { percent: number; label: string }) {
  return (
    <div className="mt-1.5">
      <ProgressBar
        role="meter"
        percent={percent}
        label={label}
        barClassName={percent >= 90 ? "bg-red-500" : percent >= 70 ? "bg-amber-500" : "bg-indigo-500"}
      />
    </div>
  );
}
