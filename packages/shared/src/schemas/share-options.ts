import { z } from "zod";
import {
  MAX_VIEWS_MAX,
  MAX_VIEWS_PROBLEM,
  REMARK_MAX,
  REMARK_PROBLEM,
  SHARE_PASSWORD_MAX,
  SHARE_PASSWORD_PROBLEM,
  slugProblem,
} from "../share-rules";
import { looseBoolean, looseInt } from "./common";
import { onFirstUse } from "./on-first-use";

/**
 * The share options (remark, slug, password, expiry, max views, access
 * logging), each field written once. Every route that creates or edits a paste
 * or a file share picks its fields from `shareOptions` (a blank field is not
 * set: uploads, commits, explorer shares) or `shareOptionsEdit` (null clears
 * it: paste create and edit, file share edit). Forms and the CLI check typed
 * values by the same limits with `shareOptionProblems` (share-rules.ts).
 */

export const slugInput = onFirstUse(() =>
  z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      const problem = slugProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
);

/** "" and null mean "no value"; anything else must parse as a date. */
export const optionalTimestamp = onFirstUse(() =>
  z.union([z.string(), z.null()]).transform((value, ctx) => {
    if (value === null || value.trim() === "") return null;
    const time = Date.parse(value);
    if (Number.isNaN(time)) {
      ctx.addIssue({ code: "custom", message: "Invalid expiry time" });
      return z.NEVER;
    }
    return new Date(time).toISOString();
  }),
);

/** 0 to MAX_VIEWS_MAX; 0 and null mean no limit (stored as null). */
export const maxViewsInput = onFirstUse(() =>
  z
    .union([looseInt, z.null()], { error: MAX_VIEWS_PROBLEM })
    .refine((v) => v === null || (v >= 0 && v <= MAX_VIEWS_MAX), MAX_VIEWS_PROBLEM)
    .transform((v) => (v === null || v === 0 ? null : v)),
);

/** The longest expiry an upload may ask for, in hours (a hundred years). */
export const EXPIRES_IN_HOURS_MAX = 24 * 365 * 100;

const remarkInput = () => z.string().max(REMARK_MAX, REMARK_PROBLEM);
const passwordInput = () => z.string().max(SHARE_PASSWORD_MAX, SHARE_PASSWORD_PROBLEM);
/** Hours until the share expires; 0 means never. The upload routes' spelling of an expiry (0.7.3's). */
const expiresInHoursInput = () =>
  z
    .union([looseInt, z.number()])
    .refine((v) => v >= 0 && v <= EXPIRES_IN_HOURS_MAX, "expires_in must be a non-negative number of hours");

const emptyToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);
const unlessBlank = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());

/** Share options of a create request, sent as JSON or form fields: a blank field is not set. */
export const shareOptions = onFirstUse(() =>
  z.object({
    remark: unlessBlank(remarkInput()),
    slug: unlessBlank(slugInput),
    password: unlessBlank(passwordInput()),
    expires_at: unlessBlank(optionalTimestamp),
    expires_in: unlessBlank(expiresInHoursInput()),
    max_views: unlessBlank(maxViewsInput),
    /** Count views but keep no access log for this share (absent: logged). */
    no_log: unlessBlank(looseBoolean),
  }),
);

/** Share options of an edit (and of a paste, whose create takes nulls too): null clears a field. */
export const shareOptionsEdit = onFirstUse(() =>
  z.object({
    remark: remarkInput().nullable().optional(),
    slug: slugInput.optional(),
    /** "" or null clears the password. */
    password: passwordInput().nullable().optional(),
    expires_at: optionalTimestamp.optional(),
    max_views: maxViewsInput.optional(),
    /** Count views but keep no access log for this share (absent: logged). */
    no_log: looseBoolean.optional(),
  }),
);
