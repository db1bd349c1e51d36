import { createRequire } from "node:module";

const requireHere = createRequire(import.meta.url);

/**
 * A loader for a CommonJS package that only some configurations need (the AWS
 * SDK for S3 storage, `pg` for PostgreSQL): the package is required on the
 * first call, synchronously, and then reused. Importing it statically instead
 * would load and keep it resident in every server, using it or not.
 * `prepare` runs once on the freshly loaded module (global settings).
 */
export function lazyRequire<T>(specifier: string, prepare?: (loaded: T) => void): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      const module = requireHere(specifier) as T;
      prepare?.(module);
      loaded = module;
    }
    return loaded;
  };
}
