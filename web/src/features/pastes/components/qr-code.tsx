import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { cn } from "../../../lib/cn";

/** A QR code of a link, drawn by the qrcode package (loaded on first use) as an SVG image. */
export function QrCode({
  value,
  size = 176,
  className,
}: {
  value: string;
  size?: number;
  className?: string;
}) {
  const { t } = useTranslation();
  const [image, setImage] = useState<{ value: string; src: string } | null>(null);

  useEffect(() => {
    let alive = true;
    void import("qrcode").then(async (mod) => {
      // A CommonJS package: its functions sit on the default export.
      const QR = mod.default ?? mod;
      const svg = await QR.toString(value, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
      if (alive) setImage({ value, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
    });
    return () => {
      alive = false;
    };
  }, [value]);

  const ready = image?.value === value;
  return (
    <div
      className={cn("shrink-0 rounded-lg bg-white p-2 ring-1 ring-slate-200 dark:ring-slate-700", className)}
      style={{ width: size + 16, height: size + 16 }}
    >
      {ready ? (
        <img src={image.src} width={size} height={size} alt={t("pastes.qrAlt", { link: value })} />
      ) : (
        <div className="h-full w-full animate-pulse rounded bg-slate-100" role="status" aria-busy="true">
          <span className="sr-only">{t("common.loading")}</span>
        </div>
      )}
    </div>
  );
}
