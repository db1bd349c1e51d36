import type { Principal } from "../auth/principal";
import type { DownloadOffload } from "../config";
import type { Logger } from "../logger";

export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    clientIp: string;
    principal: Principal;
    /** The raw bearer token, kept for logout. */
    bearerToken?: string;
    /** The Content-Security-Policy of an inline PDF (security-headers.ts), for serve-object.ts. */
    pdfPolicy: string;
    /** Set only when DOWNLOAD_OFFLOAD is on (http/offload.ts). */
    downloadOffload?: DownloadOffload;
  };
}
