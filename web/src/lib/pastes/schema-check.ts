import { createPasteRequest, updatePasteRequest } from "@clipshare/shared";
import type { CreatePasteBody, UpdatePasteBody } from "./api";

/**
 * The last check before a paste is sent: the server's own zod schemas, so
 * nothing it would refuse slips past the form. Loaded when a form submits,
 * which keeps zod out of the pages' first load. Returns the first problem's
 * (English) message, or undefined.
 */

type Result = { success: boolean; error?: { issues: { message: string }[] } };

function firstMessage(result: Result): string | undefined {
  return result.success ? undefined : (result.error?.issues[0]?.message ?? "Invalid input");
}

export function createBodyProblem(body: CreatePasteBody): string | undefined {
  return firstMessage(createPasteRequest.safeParse(body));
}

export function updateBodyProblem(body: UpdatePasteBody): string | undefined {
  return firstMessage(updatePasteRequest.safeParse(body));
}
