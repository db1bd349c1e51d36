import type { LucideIcon } from "lucide-react";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { cn } from "../../../lib/cn";
import { clampMenuWidth, placeMenu } from "../model/gesture";

export interface MenuItem {
  id: string;
  label: string;
  icon: LucideIcon;
  onSelect: () => void;
  danger?: boolean;
  disabled?: boolean;
}

/**
 * The explorer's context menu: opens where the pointer was (right click or
 * long-press), 100-600 px wide, kept inside the viewport; arrow keys move,
 * Escape or a click elsewhere closes it.
 */
export function ContextMenu({
  at,
  items,
  label,
  onClose,
}: {
  at: { x: number; y: number };
  items: MenuItem[];
  label: string;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number; width: number } | null>(null);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    // The border box, rounded up: scrollWidth leaves out the border, and a menu 2 px too narrow cuts its longest label.
    const natural = clampMenuWidth(Math.ceil(el.getBoundingClientRect().width));
    setPos(
      placeMenu(
        at,
        { width: natural, height: el.offsetHeight },
        { width: window.innerWidth, height: window.innerHeight },
      ),
    );
  }, [at]);

  // Focus goes in once the menu is placed: a hidden element cannot take it (Shift+F10 left it outside).
  const placed = pos !== null;
  useEffect(() => {
    if (placed) ref.current?.querySelector<HTMLButtonElement>("button:not([disabled])")?.focus();
  }, [placed]);

  // Closing returns focus to what had it before (the entry), also when an item opens a dialog:
  // the dialog then hands focus back to the entry, not to a menu item that is gone.
  useLayoutEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const menu = ref.current;
    return () => {
      const now = document.activeElement;
      if (opener?.isConnected && (!now || now === document.body || menu?.contains(now)))
        opener.focus({ preventScroll: true });
    };
  }, []);

  useEffect(() => {
    const onDown = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) onClose();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
    };
    const close = () => onClose();
    window.addEventListener("pointerdown", onDown, true);
    window.addEventListener("keydown", onKey);
    window.addEventListener("resize", close);
    return () => {
      window.removeEventListener("pointerdown", onDown, true);
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("resize", close);
    };
  }, [onClose]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    e.preventDefault();
    const buttons = [...(ref.current?.querySelectorAll<HTMLButtonElement>("button:not([disabled])") ?? [])];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next =
      e.key === "ArrowDown" ? (index + 1) % buttons.length : (index - 1 + buttons.length) % buttons.length;
    buttons[next]?.focus();
  };

  return (
    <div
      ref={ref}
      role="menu"
      aria-label={label}
      data-testid="context-menu"
      onKeyDown={onKeyDown}
      onContextMenu={(e) => e.preventDefault()}
      style={{
        left: pos?.left ?? at.x,
        top: pos?.top ?? at.y,
        // Measured at its natural width first: a menu opened near the right edge would
        // otherwise shrink to the space left and cut its labels ("Get direct li…").
        width: pos?.width ?? "max-content",
        minWidth: 100,
        maxWidth: 600,
        visibility: pos ? "visible" : "hidden",
      }}
      className="fixed z-50 overflow-hidden rounded-xl border border-slate-200 bg-white py-1 shadow-xl dark:border-slate-700 dark:bg-slate-900"
    >
      {items.map((item) => (
        <button
          key={item.id}
          type="button"
          role="menuitem"
          disabled={item.disabled}
          onClick={() => {
            onClose();
            item.onSelect();
          }}
          className={cn(
            "flex w-full items-center gap-2 px-3 py-2 text-left text-sm whitespace-nowrap hover:bg-slate-100 focus:bg-slate-100 focus:outline-none disabled:opacity-50 dark:hover:bg-slate-800 dark:focus:bg-slate-800",
            item.danger && !item.disabled
              ? "text-red-600 dark:text-red-400"
              : "text-slate-800 dark:text-slate-100",
          )}
        >
          <item.icon className="h-4 w-4 shrink-0" aria-hidden />
          <span className="truncate">{item.label}</span>
        </button>
      ))}
    </div>
  );
}
