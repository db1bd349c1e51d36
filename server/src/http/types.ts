import type { Principal } from "../auth/principal";
import type { DownloadOffload } from "../config";

export interface AppEnv {
  Variables: {
    requestId: string;
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
