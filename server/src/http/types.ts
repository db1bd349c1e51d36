import type { Principal } from "../auth/principal";
import type { Logger } from "../logger";

export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    clientIp: string;
    principal: Principal;
    /** The raw bearer token, kept for logout. */
    bearerToken?: string;
  };
}
