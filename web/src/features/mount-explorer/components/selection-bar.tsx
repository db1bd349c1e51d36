import type { LucideIcon } from "lucide-react";
import { CheckCheck, Copy, Ellipsis, FolderInput, Share2, ShoppingBasket, Trash2, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "../../../components/ui/button";
import { useTranslation } from "../../../i18n";
import { cn } from "../../../lib/cn";
import type { ExplorerController } from "../hooks/use-explorer";
import { ContextMenu, type MenuItem } from "./context-menu";

interface SelectionAction extends MenuItem {
  /** On a phone: a button of its own, or an item of the "More actions" menu. */
  phone: "bar" | "menu";
  /** Whether the principal may do it here (shown only then). */
  allowed?: boolean;
}

/** The CSS variable through which bottom notices (toasts) stand above the bar instead of covering it. */
const BOTTOM_BAR_VAR = "--bottom-bar-height";

/**
 * While entries are selected: what can be done with all of them at once. It floats at the
 * bottom of the window, so opening it neither covers the toolbar nor moves a row under the
 * finger or pointer that selected it. On a phone the labels give way to icons and the rarer
 * actions go into a "More actions" menu; every action stays reachable.
 */
export function SelectionBar({ x }: { x: ExplorerController }) {
  const { t } = useTranslation();
  const count = x.selection.selected.size;
  const bar = useRef<HTMLDivElement>(null);
  const more = useRef<HTMLButtonElement>(null);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const open = count > 0;

  useEffect(() => {
    const el = bar.current;
    if (!open || !el) return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty(BOTTOM_BAR_VAR, `${el.offsetHeight + 12}px`);
    publish();
    const watch = new ResizeObserver(publish);
    watch.observe(el);
    return () => {
      watch.disconnect();
      root.style.removeProperty(BOTTOM_BAR_VAR);
    };
  }, [open]);

  if (!open) return null;
  const entries = x.selectedEntries;
  const all: SelectionAction[] = [
    {
      id: "basket",
      label: t("explorer.addToBasket"),
      icon: ShoppingBasket,
      onSelect: () => x.addToBasket(entries),
      disabled: !entries.some((e) => !e.isDirectory),
      phone: "bar",
    },
    {
      id: "share",
      label: t("explorer.shareAsOneLink"),
      icon: Share2,
      onSelect: () => x.setDialog({ kind: "collection", entries }),
      phone: "bar",
      allowed: x.can.share,
    },
    {
      id: "copy",
      label: t("explorer.copyTo"),
      icon: Copy,
      onSelect: () => x.setDialog({ kind: "copy", entries }),
      phone: "menu",
      allowed: x.can.copy,
    },
    {
      id: "move",
      label: t("explorer.moveTo"),
      icon: FolderInput,
      onSelect: () => x.setDialog({ kind: "move", entries }),
      phone: "menu",
      allowed: x.can.rename,
    },
    {
      id: "delete",
      label: t("common.delete"),
      icon: Trash2,
      onSelect: () => x.setDialog({ kind: "delete", entries }),
      phone: "bar",
      allowed: x.can.delete,
    },
    { id: "all", label: t("explorer.selectAll"), icon: CheckCheck, onSelect: x.selectAll, phone: "menu" },
  ];
  const actions = all.filter((a) => a.allowed !== false);
  const inMenu = actions.filter((a) => a.phone === "menu");

  return (
    <>
      {/* Room below the list, so the bar never hides its last rows. */}
      <div aria-hidden className="h-16" />
      <div className="pointer-events-none fixed inset-x-0 bottom-0 z-30 flex justify-center px-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]">
        <div
          ref={bar}
          role="toolbar"
          aria-label={t("explorer.selectionActions")}
          data-testid="selection-bar"
          className="pointer-events-auto flex max-w-3xl flex-wrap items-center gap-1 rounded-xl border border-indigo-200 bg-indigo-50 px-2 py-1.5 text-sm shadow-lg dark:border-indigo-900 dark:bg-indigo-950"
        >
          <span className="shrink-0 px-1 font-medium">{t("explorer.selected", { count })}</span>
          {actions.map((a) => (
            <ActionButton key={a.id} action={a} />
          ))}
          {inMenu.length > 0 ? (
            <Button
              ref={more}
              size="sm"
              variant="ghost"
              className="sm:hidden"
              aria-haspopup="menu"
              aria-expanded={menuAt !== null}
              title={t("explorer.moreActions")}
              onClick={() => {
                const r = more.current?.getBoundingClientRect();
                if (r) setMenuAt({ x: r.left, y: r.top });
              }}
            >
              <Ellipsis className="h-4 w-4" aria-hidden />
              <span className="sr-only">{t("explorer.moreActions")}</span>
            </Button>
          ) : null}
          <Button size="sm" variant="ghost" onClick={x.clearSelection} title={t("explorer.clearSelection")}>
            <X className="h-4 w-4 sm:hidden" aria-hidden />
            <span className="max-sm:sr-only">{t("explorer.clearSelection")}</span>
          </Button>
        </div>
      </div>
      {menuAt ? (
        <ContextMenu
          at={menuAt}
          items={inMenu}
          label={t("explorer.moreActions")}
          onClose={() => setMenuAt(null)}
        />
      ) : null}
    </>
  );
}

/** Icon and label from a small screen up; on a phone the icon alone, or nothing if it lives in the menu. */
function ActionButton({ action: a }: { action: SelectionAction }) {
  const Icon: LucideIcon = a.icon;
  return (
    <Button
      size="sm"
      variant="ghost"
      onClick={a.onSelect}
      disabled={a.disabled}
      title={a.label}
      className={cn(a.phone === "menu" && "max-sm:hidden")}
    >
      <Icon className="h-4 w-4" aria-hidden />
      <span className="max-sm:sr-only">{a.label}</span>
    </Button>
  );
}
