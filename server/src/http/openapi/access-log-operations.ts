/** Share access log routes of the OpenAPI table (operations.ts). */
import * as w from "@clipshare/shared";
import { counted, type Operation } from "./operations";

function shareLogOperations(base: string, what: string, tag: string): Record<string, Operation> {
  return {
    [`GET ${base}`]: {
      summary: `Access log of a ${what}, newest first`,
      tag,
      access: "key",
      query: w.accessLogQuery,
      data: w.accessLogPage,
    },
    [`GET ${base}/export`]: {
      summary: `Access log of a ${what} as CSV`,
      tag,
      access: "key",
      file: "text",
    },
    [`DELETE ${base}`]: {
      summary: `Delete the access log of a ${what}`,
      tag,
      access: "key",
      data: counted("deleted"),
    },
  };
}

export const ACCESS_LOG_OPERATIONS: Record<string, Operation> = {
  ...shareLogOperations("/pastes/:id/access-log", "paste", "Pastes"),
  ...shareLogOperations("/files/:id/access-log", "file share", "File shares"),
  "GET /admin/dashboard/access-log": {
    summary: "Share accesses of the last 7 days by kind, and the most visited shares",
    tag: "Dashboard",
    access: "admin",
    data: w.accessSummary,
  },
};
