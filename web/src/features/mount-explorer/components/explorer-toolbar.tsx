import {
  ClipboardList,
  FolderPlus,
  FolderUp,
  Grid3x3,
  Images,
  List,
  RefreshCw,
  ShoppingBasket,
  Upload,
} from "lucide-react";
import { Button } from "../../../components/ui/button";
import { Select } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { cn } from "../../../lib/cn";
import type { ExplorerController, SidePanel } from "../hooks/use-explorer";
import type { ViewMode } from "../hooks/use-explorer-state";
import type { SortKey } from "../model/sort";

/** New folder and upload (when the principal may upload), refresh; sort, view mode, basket and tasks. */
export function ExplorerToolbar({ x }: { x: ExplorerController }) {
  const { t } = useTranslation();
  const { prefs, setPrefs, panel, setPanel } = x;
  const readOnly = !x.listing || x.listing.isVirtual;
  const togglePanel = (which: SidePanel) => setPanel(panel === which ? null : which);
  const viewButtons: { id: ViewMode; icon: typeof List; label: string }[] = [
    { id: "list", icon: List, label: t("explorer.view.list") },
    { id: "grid", icon: Grid3x3, label: t("explorer.view.grid") },
    { id: "gallery", icon: Images, label: t("explorer.view.gallery") },
  ];

  return (
    <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label={t("explorer.toolbar")}>
      {x.can.upload ? (
        <>
          <Button
            size="sm"
            variant="outline"
            onClick={() => x.setDialog({ kind: "mkdir" })}
            disabled={readOnly}
          >
            <FolderPlus className="h-4 w-4" aria-hidden />
            {t("explorer.newFolder")}
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() => x.fileInput.current?.click()}
            disabled={readOnly}
          >
            <Upload className="h-4 w-4" aria-hidden />
            {t("explorer.upload")}
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() => x.folderInput.current?.click()}
            disabled={readOnly}
          >
            <FolderUp className="h-4 w-4" aria-hidden />
            {t("explorer.uploadFolder")}
          </Button>
        </>
      ) : null}
      <Button
        size="icon"
        variant="ghost"
        onClick={x.reload}
        aria-label={t("common.refresh")}
        title={t("common.refresh")}
      >
        <RefreshCw className={cn("h-4 w-4", x.dir.isFetching && "animate-spin")} aria-hidden />
      </Button>
      <div className="ml-auto flex items-center gap-1">
        <Select
          value={`${prefs.sort.key}:${prefs.sort.dir}`}
          onChange={(e) => {
            const [key, dir] = e.target.value.split(":") as [SortKey, "asc" | "desc"];
            setPrefs({ sort: { key, dir } });
          }}
          aria-label={t("explorer.sortLabel")}
          className="h-9 w-auto"
        >
          {(["name", "size", "modified"] as const).flatMap((k) =>
            (["asc", "desc"] as const).map((d) => (
              <option key={`${k}:${d}`} value={`${k}:${d}`}>
                {`${t(`explorer.sort.${k}`)} ${d === "asc" ? "↑" : "↓"}`}
              </option>
            )),
          )}
        </Select>
        <div
          className="flex rounded-lg border border-slate-200 p-0.5 dark:border-slate-700"
          role="group"
          aria-label={t("explorer.viewLabel")}
        >
          {viewButtons.map((v) => (
            <Button
              key={v.id}
              size="icon"
              variant={prefs.view === v.id ? "secondary" : "ghost"}
              className="h-8 w-8"
              aria-pressed={prefs.view === v.id}
              aria-label={v.label}
              title={v.label}
              onClick={() => setPrefs({ view: v.id })}
            >
              <v.icon className="h-4 w-4" aria-hidden />
            </Button>
          ))}
        </div>
        <Button
          size="sm"
          variant={panel === "basket" ? "secondary" : "ghost"}
          onClick={() => togglePanel("basket")}
          title={t("explorer.basketButton", { count: x.basket.items.length })}
        >
          <ShoppingBasket className="h-4 w-4" aria-hidden />
          {/* Named by its content (name, then the count everyone sees), so the visible count is part of its name. */}
          <span className="sr-only">{t("explorer.basket")}</span>
          <span className="tabular-nums">{x.basket.items.length}</span>
        </Button>
        {x.can.tasks ? (
          <Button
            size="sm"
            variant={panel === "tasks" ? "secondary" : "ghost"}
            onClick={() => togglePanel("tasks")}
            aria-label={t("explorer.tasks")}
            title={t("explorer.tasks")}
          >
            <ClipboardList className="h-4 w-4" aria-hidden />
          </Button>
        ) : null}
      </div>
    </div>
  );
}
