/**
 * Multi-select of an ordered list (file managers' rules): a plain click selects
 * one, ctrl/cmd toggles one, shift selects the range from the anchor. Pure.
 */

export interface Selection {
  selected: ReadonlySet<string>;
  /** Where the next shift-click range starts. */
  anchor: string | null;
}

export const EMPTY_SELECTION: Selection = { selected: new Set(), anchor: null };

export interface ClickModifiers {
  shift?: boolean;
  toggle?: boolean;
}

export function clickSelect(
  state: Selection,
  order: readonly string[],
  id: string,
  mods: ClickModifiers = {},
): Selection {
  if (mods.shift && state.anchor !== null) {
    const from = order.indexOf(state.anchor);
    const to = order.indexOf(id);
    if (from >= 0 && to >= 0) {
      const [lo, hi] = from <= to ? [from, to] : [to, from];
      const range = order.slice(lo, hi + 1);
      const selected = new Set(mods.toggle ? state.selected : []);
      for (const r of range) selected.add(r);
      return { selected, anchor: state.anchor };
    }
  }
  if (mods.toggle) {
    const selected = new Set(state.selected);
    if (selected.has(id)) selected.delete(id);
    else selected.add(id);
    return { selected, anchor: id };
  }
  return { selected: new Set([id]), anchor: id };
}

/** A checkbox flips one entry and keeps the others. */
export function toggleOne(state: Selection, id: string): Selection {
  return clickSelect(state, [], id, { toggle: true });
}

export function selectAll(order: readonly string[]): Selection {
  return { selected: new Set(order), anchor: order[0] ?? null };
}

/** Drops ids that are no longer listed (after a delete, rename or navigation). */
export function pruneSelection(state: Selection, order: readonly string[]): Selection {
  const present = new Set(order);
  const selected = new Set([...state.selected].filter((id) => present.has(id)));
  if (selected.size === state.selected.size) return state;
  return { selected, anchor: state.anchor !== null && present.has(state.anchor) ? state.anchor : null };
}

/** Right-clicking an unselected entry selects just it; on a selected one the selection stays. */
export function contextSelect(state: Selection, id: string): Selection {
  return state.selected.has(id) ? state : { selected: new Set([id]), anchor: id };
}
