/**
 * A small promise-based layer over IndexedDB: typed object stores, opened on
 * first use, with the few queries the app needs (ordered and ranged walks of an
 * index, counts, bulk deletes, transactions over several stores).
 */

export interface StoreSchema {
  /** Key path of the primary key; without one, keys are given with each `put`. */
  key?: string;
  autoIncrement?: boolean;
  /** Indexes, each named after the property it indexes. */
  indexes?: string[];
}

/** Which rows a walk visits, in key order of the index (or of the primary key). */
export interface Query {
  index?: string;
  /** Only rows whose key equals this. */
  only?: IDBValidKey;
  /** Only rows whose key is at most this. */
  to?: IDBValidKey;
  reverse?: boolean;
  limit?: number;
}

/** The IndexedDB implementation (the browser's; an in-memory one in unit tests). */
export interface IdbDeps {
  indexedDB: IDBFactory;
  IDBKeyRange: typeof IDBKeyRange;
}

type Run = <R>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => Promise<R>) => Promise<R>;

/** A request's result as a promise. */
export function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

export class Store<T, K extends IDBValidKey = IDBValidKey> {
  constructor(
    private readonly run: Run,
    private readonly deps: () => IdbDeps,
  ) {}

  get(key: K): Promise<T | undefined> {
    return this.run("readonly", (s) => request(s.get(key)));
  }

  /** Inserts or replaces; resolves with the row's key. */
  put(row: T, key?: K): Promise<K> {
    return this.run("readwrite", (s) => request(s.put(row, key)) as Promise<K>);
  }

  /** Inserts; fails when the key exists. Resolves with the key (the new id of an auto-increment store). */
  add(row: T): Promise<K> {
    return this.run("readwrite", (s) => request(s.add(row)) as Promise<K>);
  }

  /** Merges `changes` into the row; false when there is none. */
  update(key: K, changes: Partial<T>): Promise<boolean> {
    return this.run("readwrite", async (s) => {
      const row = await request(s.get(key));
      if (row === undefined) return false;
      await request(s.keyPath === null ? s.put({ ...row, ...changes }, key) : s.put({ ...row, ...changes }));
      return true;
    });
  }

  delete(key: K): Promise<void> {
    return this.run("readwrite", (s) => request(s.delete(key)));
  }

  bulkDelete(keys: K[]): Promise<void> {
    return this.run("readwrite", async (s) => {
      await Promise.all(keys.map((key) => request(s.delete(key))));
    });
  }

  clear(): Promise<void> {
    return this.run("readwrite", (s) => request(s.clear()));
  }

  count(): Promise<number> {
    return this.run("readonly", (s) => request(s.count()));
  }

  all(query: Query = {}): Promise<T[]> {
    return this.entries(query).then((found) => found.map(([, row]) => row));
  }

  /** Primary keys of the rows the query visits, in its order. */
  keys(query: Query = {}): Promise<K[]> {
    return this.entries(query).then((found) => found.map(([key]) => key));
  }

  /** `[primary key, row]` of the rows the query visits, in its order. */
  entries(query: Query = {}): Promise<[K, T][]> {
    const found: [K, T][] = [];
    return this.walk("readonly", query, (c) => found.push([c.primaryKey as K, c.value])).then(() => found);
  }

  /** Deletes the rows the query visits; resolves with how many. */
  deleteAll(query: Query = {}): Promise<number> {
    let n = 0;
    return this.walk("readwrite", query, (c) => {
      c.delete();
      n += 1;
    }).then(() => n);
  }

  /** Replaces each row `change` returns a new version of; resolves with how many changed. */
  modify(change: (row: T) => T | undefined, query: Query = {}): Promise<number> {
    let n = 0;
    return this.walk("readwrite", query, (c) => {
      const next = change(c.value);
      if (next === undefined) return;
      c.update(next);
      n += 1;
    }).then(() => n);
  }

  private walk(mode: IDBTransactionMode, q: Query, visit: (cursor: IDBCursorWithValue) => void) {
    const { IDBKeyRange: ranges } = this.deps();
    const range =
      q.only !== undefined ? ranges.only(q.only) : q.to !== undefined ? ranges.upperBound(q.to) : undefined;
    return this.run(
      mode,
      (s) =>
        new Promise<void>((resolve, reject) => {
          let left = q.limit ?? Number.POSITIVE_INFINITY;
          const source = q.index ? s.index(q.index) : s;
          const req = source.openCursor(range, q.reverse ? "prev" : "next");
          req.onerror = () => reject(req.error);
          req.onsuccess = () => {
            const cursor = req.result;
            if (!cursor || left <= 0) return resolve();
            visit(cursor);
            left -= 1;
            cursor.continue();
          };
        }),
    );
  }
}

/** The stores of a database by name, plus what spans them. */
export type Database<S> = S & {
  /** Runs `work` in one read-write transaction over `names`: all of it is written, or none. */
  transaction<N extends keyof S & string>(
    names: N[],
    work: (stores: Pick<S, N>) => Promise<void>,
  ): Promise<void>;
  close(): void;
  /** Deletes the whole database. */
  delete(): Promise<void>;
};

type AnyStores = Record<string, Store<never, IDBValidKey>>;

function hasSchema(db: IDBDatabase, schema: Record<string, StoreSchema>): boolean {
  const names = Object.keys(schema);
  if (!names.every((name) => db.objectStoreNames.contains(name))) return false;
  const tx = db.transaction(names, "readonly");
  const complete = names.every((name) =>
    (schema[name]?.indexes ?? []).every((index) => tx.objectStore(name).indexNames.contains(index)),
  );
  // Ended now: a connection closes only once its transactions have, and an upgrade waits for that.
  tx.abort();
  return complete;
}

/** Creates the stores and indexes the database lacks; existing ones and their rows stay. */
function createMissing(db: IDBDatabase, tx: IDBTransaction, schema: Record<string, StoreSchema>): void {
  for (const [name, s] of Object.entries(schema)) {
    const store = db.objectStoreNames.contains(name)
      ? tx.objectStore(name)
      : db.createObjectStore(name, { keyPath: s.key, autoIncrement: s.autoIncrement });
    for (const index of s.indexes ?? []) {
      if (!store.indexNames.contains(index)) store.createIndex(index, index);
    }
  }
}

/** How long an upgrade waits for other connections to close before the call fails. */
const BLOCKED_WAIT_MS = 3000;

function openAt(
  factory: IDBFactory,
  name: string,
  version: number | undefined,
  schema: Record<string, StoreSchema>,
): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    let gaveUp = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const req = version ? factory.open(name, version) : factory.open(name);
    req.onupgradeneeded = () => createMissing(req.result, req.transaction as IDBTransaction, schema);
    req.onsuccess = () => {
      clearTimeout(timer);
      // Too late: the caller has given up on it, so it must not hold the database open.
      if (gaveUp) req.result.close();
      else resolve(req.result);
    };
    req.onerror = () => {
      clearTimeout(timer);
      reject(req.error);
    };
    // Connections closing for the upgrade may take a moment; one that never closes must not hang the page.
    req.onblocked = () => {
      timer ??= setTimeout(() => {
        gaveUp = true;
        reject(new DOMException(`IndexedDB ${name} upgrade blocked`, "AbortError"));
      }, BLOCKED_WAIT_MS);
    };
  });
}

/**
 * Opens at `version`, creating what is missing. A database already at a higher version
 * (written by a later build) is used as it is when it holds the schema; one lacking part
 * of it is upgraded one version up.
 */
async function connect(
  factory: IDBFactory,
  name: string,
  version: number,
  schema: Record<string, StoreSchema>,
): Promise<IDBDatabase> {
  let db = await openAt(factory, name, version, schema).catch((error: unknown) => {
    if ((error as DOMException | null)?.name !== "VersionError") throw error;
    return openAt(factory, name, undefined, schema);
  });
  if (!hasSchema(db, schema)) {
    db.close();
    db = await openAt(factory, name, db.version + 1, schema);
  }
  return db;
}

/** A database handle; nothing is opened until the first call (which fails where IndexedDB is missing). */
export function openDatabase<S extends object>(
  name: string,
  version: number,
  schema: Record<keyof S & string, StoreSchema>,
  options?: IdbDeps,
): Database<S> {
  const deps = (): IdbDeps => options ?? globalThis;
  let opened: Promise<IDBDatabase> | null = null;

  const connection = (): Promise<IDBDatabase> => {
    if (opened) return opened;
    const factory = deps().indexedDB;
    if (!factory) return Promise.reject(new Error("IndexedDB is unavailable"));
    const current = connect(factory, name, version, schema).then(
      (db) => {
        const forget = () => {
          if (opened === current) opened = null;
        };
        // Another tab upgrades or deletes the database: step aside; the next call reopens.
        db.onversionchange = () => {
          db.close();
          forget();
        };
        db.onclose = forget;
        return db;
      },
      (error: unknown) => {
        opened = null;
        throw error;
      },
    );
    opened = current;
    return current;
  };

  async function inTransaction<R>(
    names: string[],
    mode: IDBTransactionMode,
    work: (tx: IDBTransaction) => Promise<R>,
  ): Promise<R> {
    const tx = (await connection()).transaction(names, mode);
    const done = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onabort = () => reject(tx.error ?? new DOMException("Transaction aborted", "AbortError"));
    });
    const result = work(tx).catch((error: unknown) => {
      try {
        tx.abort();
      } catch {
        // Already finished.
      }
      throw error;
    });
    return (await Promise.all([result, done]))[0];
  }

  const storesOf = (names: string[], run: (name: string) => Run) =>
    Object.fromEntries(names.map((n) => [n, new Store(run(n), deps)]));

  const close = () => {
    void opened?.then(
      (c) => c.close(),
      () => undefined,
    );
    opened = null;
  };
  const stores = storesOf(
    Object.keys(schema),
    (n) => (mode, work) => inTransaction([n], mode, (tx) => work(tx.objectStore(n))),
  );
  return Object.assign(stores, {
    transaction: (names: string[], work: (stores: AnyStores) => Promise<void>) =>
      inTransaction(names, "readwrite", (tx) =>
        work(storesOf(names, (n) => (_mode, w) => w(tx.objectStore(n))) as AnyStores),
      ),
    close,
    delete: async () => {
      close();
      await request(deps().indexedDB.deleteDatabase(name) as IDBRequest<unknown>);
    },
  }) as unknown as Database<S>;
}
