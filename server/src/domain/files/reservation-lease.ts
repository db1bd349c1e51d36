/**
 * A share upload streamed through the server reserves its slug with a pending
 * row and an upload session. The session holds a short lease that the
 * uploading process renews while the body streams: if the process dies
 * (kill -9, crash, power loss), renewal stops and the housekeeping sweep frees
 * the slug within minutes, on whichever instance runs it.
 */
import type { Db } from "../../db/database";

/** Lifetime of the lease; the sweep removes reservations whose lease has lapsed. */
export const RESERVATION_LEASE_SECONDS = 120;
/** Renewed three times per lease, so one slow database write does not lose it. */
const RENEW_EVERY_MS = (RESERVATION_LEASE_SECONDS * 1000) / 3;

/** Keeps renewing the reservation of `fileId` until the returned function is called. */
export function holdReservation(db: Db, fileId: string): () => void {
  const renew = () =>
    db
      .updateTable("upload_sessions")
      .set({ expires_at: new Date(Date.now() + RESERVATION_LEASE_SECONDS * 1000).toISOString() })
      .where("file_id", "=", fileId)
      .execute()
      .catch(() => undefined); // the next renewal tries again; the lease outlives two misses
  const timer = setInterval(renew, RENEW_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
