/**
 * Temporary files carry the tag of the process writing them, so that a sweep
 * can tell a file whose writer is gone (killed, crashed, restarted) from one
 * still being written, and remove it at once instead of after an idle age.
 *
 * A name is `<prefix>-<host>.<pid>.<nonce>-<unique>`. Only tags of this host
 * can be judged: the writer is gone when its pid runs no process, or when its
 * pid is this process's own but the nonce differs (a restarted container gets
 * the same pid and host name). Files of other hosts (a shared disk) and names
 * without a tag keep the age rule.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { hostname } from "node:os";

const HOST = hostname().replace(/[^A-Za-z0-9-]/g, "_") || "host";
const NONCE = randomBytes(4).toString("hex");
const OWN_TAG = `${HOST}.${process.pid}.${NONCE}`;

/** A fresh temporary file name for this process: `<prefix>-<tag>-<uuid>`. */
export function taggedTempName(prefix: string): string {
  return `${prefix}-${OWN_TAG}-${randomUUID()}`;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** True when `name` (made by taggedTempName with `prefix`) was written by a process of this host that is gone. */
export function writerGone(name: string, prefix: string): boolean {
  const head = `${prefix}-${HOST}.`;
  if (!name.startsWith(head)) return false;
  const m = /^(\d+)\.([0-9a-f]{8})-/.exec(name.slice(head.length));
  if (!m) return false;
  const pid = Number(m[1]);
  if (pid === process.pid) return m[2] !== NONCE;
  return !running(pid);
}
