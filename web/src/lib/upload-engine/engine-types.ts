import type { PartTransport } from "./multipart-uploader";
import type { ResumeStore } from "./resume-store";

/** One file and the name it is stored under (a dropped folder's relative path, a pasted file's name). */
export interface UploadSource {
  file: File;
  name: string;
}

/** Settings of the engine (tests pass their own transport, store and part size). */
export interface EngineOptions {
  transport?: PartTransport;
  store?: ResumeStore;
  /** Smallest part size (tests use small ones; storage needs 5 MiB). */
  basePartSize?: number;
}
