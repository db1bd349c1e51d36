import type { Context } from "hono";
import type { SignInContext } from "../domain/users/account-service";
import { requestHeader } from "./node-exchange";
import type { AppEnv } from "./types";

/** Who signs in from where, as the new session records it (every route that starts one). */
export const signInContext = (c: Context<AppEnv>): SignInContext => ({
  clientIp: c.get("clientIp"),
  userAgent: requestHeader(c, "user-agent") ?? null,
});
