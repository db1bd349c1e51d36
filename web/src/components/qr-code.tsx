import { useEffect, useState } from "react";
import { useTranslation } from "../i18n";
import { cn } from "../lib/cn";
import { Alert } from "./ui/alert";

/** An SVG data URL of a QR code; the encoder is its own chunk, fetched on first use. */
async function qrImage(text: string): Promise<string> {
  const mod = await import("qrcode");
  // A CommonJS package: its functions sit on the default export.
  const QR = mod.default ?? mod;
  const svg = await QR.toString(text, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/**
 * The QR code of a link, dark modules on a white tile so that phones read it
 * in either theme. `label` names the image ("QR code for …").
 */
export function QrCode({
  value,
  label,
  size = 176,
  className,
}: {
  value: string;
  label: string;
  size?: number;
  className?: string;
}) {
  const { t } = useTranslation();
  const [image, setImage] = useState<{ value: string; src: string | null } | null>(null);

  useEffect(() => {
    let alive = true;
    qrImage(value).then(
      (src) => alive && setImage({ value, src }),
      () => alive && setImage({ value, src: null }),
    );
    return () => {
      alive = false;
    };
  }, [value]);

  const ready = image?.value === value;
  if (ready && image.src === null) return <Alert>{t("fileShare.qrFailed")}</Alert>;
  return (
    <div
      className={cn("shrink-0 rounded-lg bg-white p-2 ring-1 ring-slate-200 dark:ring-slate-700", className)}
      style={{ width: size + 16, height: size + 16 }}
    >
      {ready && image.src ? (
        <img src={image.src} width={size} height={size} alt={label} />
      ) : (
        <div className="h-full w-full animate-pulse rounded bg-slate-100" role="status" aria-busy="true">
          <span className="sr-only">{t("common.loading")}</span>
        </div>
      )}
    </div>
  );
}
