/**
 * Folder settings as the tree applies them (docs/folder-settings.md): a
 * snapshot of every `folder_settings` row, loaded with the mount table and
 * dropped with it (so the mount bus keeps every instance current).
 *
 * Inheritance: readme, header, password and public listing come from the
 * nearest folder at or above a path that sets them; hide globs add up along
 * the way down, so a setting below can never uncover what one above hides.
 * A glob is relative to the folder that carries it, with the index's glob
 * rules (index-globs.ts): without "/" it matches a name at any depth.
 *
 * Public browsing (docs/public-browsing.md): a path is public when the nearest
 * explicit say at or above it is yes: a folder's `public_list`, or a mount's
 * own switch at its mount path (a folder setting at that same path wins).
 * Folders above a public one are "on the way": a visitor may open them, and
 * sees in them only what leads on to a public part.
 */
import type { FolderSettingsRow } from "../../db/schema";
import { globMatcher, parseGlobList } from "./index-globs";
import { isWithin, subPathOf, vparent } from "./vpath";

export interface FolderHider {
  path: string;
  matchers: Array<(rel: string) => boolean>;
}

/** What a folder shows and asks, after inheritance. */
export interface EffectiveFolder {
  readme: { text: string; from: string } | null;
  header: { text: string; from: string } | null;
  /** The folder whose password guards this path, or null. */
  lockedAt: string | null;
  /** Visitors without credentials may read it (public browsing). */
  publicList: boolean;
}

/** An active mount as the public rules see it: where it is, and its public switch. */
export interface MountPublicity {
  path: string;
  publicBrowse: boolean;
}

export class FolderRules {
  private readonly byPath: Map<string, FolderSettingsRow>;
  private readonly hiders: FolderHider[];
  private readonly publicMounts: Set<string>;
  /** Where a public part starts (explicitly public, inside or above an active mount), in path order. */
  readonly publicRoots: readonly string[];

  constructor(rows: readonly FolderSettingsRow[], mounts: readonly MountPublicity[] = []) {
    this.byPath = new Map(rows.map((r) => [r.path, r]));
    this.hiders = rows
      .map((r) => ({ path: r.path, matchers: parseGlobList(r.hide_patterns).map(globMatcher) }))
      .filter((h) => h.matchers.length > 0);
    this.publicMounts = new Set(mounts.filter((m) => m.publicBrowse).map((m) => m.path));
    const candidates = [...rows.filter((r) => r.public_list === 1).map((r) => r.path), ...this.publicMounts];
    // A public folder where no mount is would only add an empty folder on the way.
    const reachesStorage = (p: string) => mounts.some((m) => isWithin(p, m.path) || isWithin(m.path, p));
    this.publicRoots = [...new Set(candidates)]
      .filter((p) => reachesStorage(p) && this.publicAt(p))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** No folder settings: nothing changes for keys (public browsing may still be on). */
  get empty(): boolean {
    return this.byPath.size === 0;
  }

  /** Visitors without credentials may read `path` (the nearest explicit say is yes). */
  publicAt(path: string): boolean {
    for (let p = path; ; p = vparent(p)) {
      const flag = this.byPath.get(p)?.public_list;
      if (flag !== null && flag !== undefined) return flag === 1;
      if (this.publicMounts.has(p)) return true;
      if (p === "/") return false;
    }
  }

  /** A public part lies strictly below `path`: a visitor may open `path` on the way to it. */
  leadsToPublic(path: string): boolean {
    return this.publicRoots.some((root) => root !== path && isWithin(root, path));
  }

  /** What a visitor may reach: a public path, or a folder on the way to one. */
  visitorReaches(path: string): boolean {
    return this.publicAt(path) || this.leadsToPublic(path);
  }

  /** Settings rows at `path` and above, nearest first. */
  chain(path: string): FolderSettingsRow[] {
    const rows: FolderSettingsRow[] = [];
    for (let p = path; ; p = vparent(p)) {
      const row = this.byPath.get(p);
      if (row) rows.push(row);
      if (p === "/") return rows;
    }
  }

  /** `path` or a folder on its way is matched by a hide glob of a folder above it. */
  hides(path: string): boolean {
    for (const hider of this.hiders) {
      if (path === hider.path || !isWithin(path, hider.path)) continue;
      const rel = hider.path === "/" ? path.slice(1) : subPathOf(path, hider.path);
      // Every step below the hider's folder: a hidden folder hides what is inside it.
      const segments = rel.split("/");
      for (let i = 1; i <= segments.length; i++) {
        const prefix = segments.slice(0, i).join("/");
        if (hider.matchers.some((m) => m(prefix))) return true;
      }
    }
    return false;
  }

  /** An entry a listing may show: not hidden, and no link where hide globs apply (its name says nothing of where it leads). */
  shows(path: string, isLink = false): boolean {
    return !this.hides(path) && !(isLink && this.hidesAt(path));
  }

  /** Some hide glob applies at `path` (from a folder at or above it). */
  hidesAt(path: string): boolean {
    return this.hiders.some((h) => isWithin(path, h.path));
  }

  /** Some hide glob applies at or anywhere below `path`: a copy or move of it could carry hidden entries. */
  hidesWithin(path: string): boolean {
    return this.hiders.some((h) => isWithin(path, h.path) || isWithin(h.path, path));
  }

  /** Every folder with a password. */
  lockedFolders(): FolderSettingsRow[] {
    return [...this.byPath.values()].filter((r) => r.password_hash !== null);
  }

  /** The nearest folder at or above `path` with a password. */
  lockFor(path: string): FolderSettingsRow | null {
    return this.chain(path).find((r) => r.password_hash !== null) ?? null;
  }

  effective(path: string): EffectiveFolder {
    const chain = this.chain(path);
    const readme = chain.find((r) => r.readme !== null);
    const header = chain.find((r) => r.header !== null);
    return {
      readme: readme?.readme ? { text: readme.readme, from: readme.path } : null,
      header: header?.header ? { text: header.header, from: header.path } : null,
      lockedAt: this.lockFor(path)?.path ?? null,
      publicList: this.publicAt(path),
    };
  }
}
