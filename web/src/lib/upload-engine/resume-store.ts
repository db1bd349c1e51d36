/**
 * Saved progress of multipart uploads, so a reload, a sleeping laptop or a
 * lost network continues from the parts already stored. One record per file
 * (name, size, last-modified) and destination; records older than 24 hours
 * are discarded (the storage's own multipart uploads lapse too).
 */
import type { StoredPart } from "@clipshare/shared";
import { type IdbDeps, openDatabase, type Store } from "../offline/idb";

export const RESUME_TTL_MS = 24 * 60 * 60 * 1000;

/** A multipart upload as the server started it; `ref` is what its routes need again (file id, path…). */
export interface MultipartSession<S = unknown> {
  uploadId: string;
  ref: S;
  partSize: number;
  partCount: number;
  totalSize: number;
}

export type { StoredPart };

export interface SavedUpload<S = unknown> {
  key: string;
  session: MultipartSession<S>;
  parts: StoredPart[];
  savedAt: number;
}

/** The few operations the store needs from IndexedDB (or memory in tests). */
export interface KeyValueBackend {
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  entries(): Promise<Array<[string, unknown]>>;
}

export interface FileIdentity {
  name: string;
  size: number;
  lastModified: number;
}

/** `scope` names the destination (storage config, folder), so one file sent to two places never mixes. */
export function resumeKey(scope: string, file: FileIdentity): string {
  return JSON.stringify([scope, file.name, file.size, file.lastModified]);
}

function isSaved(value: unknown): value is SavedUpload {
  if (!value || typeof value !== "object") return false;
  const v = value as Partial<SavedUpload>;
  return (
    typeof v.key === "string" &&
    typeof v.savedAt === "number" &&
    Array.isArray(v.parts) &&
    typeof v.session?.uploadId === "string" &&
    typeof v.session.partSize === "number"
  );
}

export class ResumeStore {
  constructor(
    private readonly backend: KeyValueBackend,
    private readonly now: () => number = Date.now,
    private readonly ttlMs = RESUME_TTL_MS,
  ) {}

  /** The saved upload of this key, or null (none, unreadable, or older than the TTL: then it is removed). */
  async load<S>(key: string): Promise<SavedUpload<S> | null> {
    const value = await this.backend.get(key).catch(() => null);
    if (value === null || value === undefined) return null;
    if (!isSaved(value) || this.expired(value)) {
      await this.remove(key);
      return null;
    }
    return value as SavedUpload<S>;
  }

  async save<S>(key: string, session: MultipartSession<S>, parts: StoredPart[]): Promise<void> {
    const record: SavedUpload<S> = { key, session, parts, savedAt: this.now() };
    await this.backend.put(key, record).catch(() => undefined);
  }

  async remove(key: string): Promise<void> {
    await this.backend.delete(key).catch(() => undefined);
  }

  /** Drops every expired record; returns how many. */
  async prune(): Promise<number> {
    const entries = await this.backend.entries().catch(() => []);
    let removed = 0;
    for (const [key, value] of entries) {
      if (!isSaved(value) || this.expired(value)) {
        await this.remove(key);
        removed++;
      }
    }
    return removed;
  }

  private expired(record: SavedUpload): boolean {
    return this.now() - record.savedAt > this.ttlMs;
  }
}

export function memoryBackend(): KeyValueBackend {
  const map = new Map<string, unknown>();
  return {
    get: async (key) => structuredClone(map.get(key)),
    put: async (key, value) => {
      map.set(key, structuredClone(value));
    },
    delete: async (key) => {
      map.delete(key);
    },
    entries: async () => [...map.entries()].map(([k, v]) => [k, structuredClone(v)] as [string, unknown]),
  };
}

/** IndexedDB in a database of its own; memory where IndexedDB is missing (private modes, tests). */
export function indexedDbBackend(deps?: IdbDeps): KeyValueBackend {
  if (!(deps ?? globalThis).indexedDB) return memoryBackend();
  const { multipart } = openDatabase<{ multipart: Store<unknown, string> }>(
    "clipshare-uploads",
    1,
    { multipart: {} },
    deps,
  );
  return {
    get: (key) => multipart.get(key),
    put: async (key, value) => {
      await multipart.put(value, key);
    },
    delete: (key) => multipart.delete(key),
    entries: () => multipart.entries(),
  };
}

let shared: ResumeStore | null = null;
/** The app's one store. */
export function resumeStore(): ResumeStore {
  shared ??= new ResumeStore(indexedDbBackend());
  return shared;
}
