/**
 * Node's own Fetch classes (Request, Response, Headers), reached without
 * loading them. Node defines these globals as getters that load its Fetch
 * implementation (several MB of memory) on first read; ClipShare's Node server
 * reads them only when a request or answer needs a real Fetch object, so an
 * idle server that answered plain requests never loads it.
 */

type FetchClass = "Request" | "Response" | "Headers";

/** Set on ClipShare's own stand-ins for these globals: the Node class behind each. */
export const NODE_CLASS = Symbol.for("clipshare.nodeFetchClass");

interface StandIn {
  [NODE_CLASS]: () => unknown;
}

/**
 * A reader of the global as Node defined it, taken before ClipShare replaces
 * it. Reading the property descriptor does not run Node's getter; calling the
 * reader does. When the global already is one of ClipShare's stand-ins (the
 * module evaluated again in the same process, as test runners do), its own
 * reader is used.
 */
function readerOf(name: FetchClass): () => unknown {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
  if (!descriptor) return () => undefined;
  if (descriptor.get) return descriptor.get.bind(globalThis);
  const value = descriptor.value as Partial<StandIn> | undefined;
  if (value?.[NODE_CLASS]) return value[NODE_CLASS];
  return () => value;
}

const readers = {
  Request: readerOf("Request"),
  Response: readerOf("Response"),
  Headers: readerOf("Headers"),
};

let loaded: { Request: typeof Request; Response: typeof Response; Headers: typeof Headers } | undefined;

/**
 * Calls Node's reader for `name`. On its first call Node's getter redefines the
 * global as its class: a stand-in installed there is put back.
 */
function read(name: FetchClass): unknown {
  const current = Object.getOwnPropertyDescriptor(globalThis, name);
  const value = readers[name]();
  const standIn = current?.value as Partial<StandIn> | undefined;
  if (standIn?.[NODE_CLASS]) Object.defineProperty(globalThis, name, current as PropertyDescriptor);
  return value;
}

/** The Node classes; the first call loads Node's Fetch implementation. */
export function fetchClasses() {
  loaded ??= {
    Request: read("Request") as typeof Request,
    Response: read("Response") as typeof Response,
    Headers: read("Headers") as typeof Headers,
  };
  return loaded;
}

/** Whether the Node classes were asked for through this module (reads nothing). */
export const fetchClassesLoaded = (): boolean => loaded !== undefined;

/** The reader of Node's class, for a stand-in installed in its place. */
export const nodeClassReader = (name: FetchClass) => readers[name];
