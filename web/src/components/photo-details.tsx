import { useQuery } from "@tanstack/react-query";
import { Info } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "../i18n";
import { Button } from "./ui/button";

/**
 * A photo's details from its EXIF block: camera, lens, when it was taken, size and
 * exposure; where it was taken only for `showLocation` (people who may manage the
 * file: a visitor of a share never sees coordinates). exifr loads on the first
 * opening and reads only the start of the file (Range requests); a HEIF photo's
 * EXIF item is found through its boxes first (lib/heif-exif.ts).
 */
export function PhotoDetails({
  src,
  showLocation,
  heif = false,
}: {
  src: string;
  showLocation: boolean;
  /** The photo is HEIF/HEIC. */
  heif?: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const details = useQuery({
    queryKey: ["photo-details", src, showLocation],
    queryFn: () => readPhotoDetails(src, showLocation, heif),
    enabled: open,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return (
    <div className="text-sm">
      <Button variant="secondary" size="sm" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <Info className="h-4 w-4" aria-hidden />
        {t("photoDetails.button")}
      </Button>
      {open ? (
        <dl
          className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-lg bg-white p-3 text-slate-800 dark:bg-slate-900 dark:text-slate-100"
          data-testid="photo-details"
        >
          {details.isPending ? (
            <dd className="col-span-2 text-slate-500">{t("photoDetails.reading")}</dd>
          ) : !details.data || details.data.length === 0 ? (
            <dd className="col-span-2 text-slate-500">{t("photoDetails.none")}</dd>
          ) : (
            details.data.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-slate-500 dark:text-slate-400">{t(`photoDetails.${label}`)}</dt>
                <dd className="break-words">{value}</dd>
              </div>
            ))
          )}
        </dl>
      ) : null}
    </div>
  );
}

type DetailLabel = "camera" | "lens" | "taken" | "dimensions" | "exposure" | "location";

interface ExifTags {
  Make?: string;
  Model?: string;
  LensModel?: string;
  DateTimeOriginal?: Date | string;
  ExifImageWidth?: number;
  ExifImageHeight?: number;
  ImageWidth?: number;
  ImageHeight?: number;
  ExposureTime?: number;
  FNumber?: number;
  ISO?: number;
  FocalLength?: number;
  latitude?: number;
  longitude?: number;
}

async function readPhotoDetails(
  src: string,
  showLocation: boolean,
  heif: boolean,
): Promise<[DetailLabel, string][]> {
  const { default: exifr } = await import("exifr/dist/lite.esm.mjs");
  let tags: ExifTags | undefined;
  try {
    const input = heif ? await (await import("../lib/heif-exif")).readHeifExif(src) : src;
    if (!input) return [];
    tags = (await exifr.parse(input, { tiff: true, exif: true, gps: showLocation })) as ExifTags | undefined;
  } catch {
    return [];
  }
  if (!tags) return [];
  const rows: [DetailLabel, string | null][] = [
    ["camera", [tags.Make, tags.Model].filter(Boolean).join(" ") || null],
    ["lens", tags.LensModel ?? null],
    ["taken", tags.DateTimeOriginal ? new Date(tags.DateTimeOriginal).toLocaleString() : null],
    [
      "dimensions",
      (tags.ExifImageWidth ?? tags.ImageWidth)
        ? `${tags.ExifImageWidth ?? tags.ImageWidth} × ${tags.ExifImageHeight ?? tags.ImageHeight}`
        : null,
    ],
    [
      "exposure",
      [
        tags.ExposureTime ? `1/${Math.round(1 / tags.ExposureTime)} s` : null,
        tags.FNumber ? `f/${tags.FNumber}` : null,
        tags.ISO ? `ISO ${tags.ISO}` : null,
        tags.FocalLength ? `${tags.FocalLength} mm` : null,
      ]
        .filter(Boolean)
        .join(" · ") || null,
    ],
    [
      "location",
      showLocation && tags.latitude !== undefined && tags.longitude !== undefined
        ? `${tags.latitude.toFixed(5)}, ${tags.longitude.toFixed(5)}`
        : null,
    ],
  ];
  return rows.filter((row): row is [DetailLabel, string] => row[1] !== null);
}
