/**
 * Sending one e-mail through an SMTP server with nodemailer, which is loaded
 * on the first e-mail (lazy-require.ts): a server that never sends mail never
 * holds it. An answer of the server is kept as `responseCode` on the error, so
 * the caller can tell a refusal (5xx: never retried) from a failure to retry.
 */
import type * as Nodemailer from "nodemailer";
import { lazyRequire } from "./lazy-require";

const loadNodemailer = lazyRequire<typeof Nodemailer>("nodemailer");

export interface SmtpServer {
  host: string;
  port: number;
  /** none: plain; starttls: upgrade required; tls: TLS from the first byte (port 465). */
  security: "none" | "starttls" | "tls";
  user: string | null;
  password: string | null;
}

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
}

export class MailError extends Error {
  constructor(
    message: string,
    /** The SMTP reply code, when the server answered. */
    readonly responseCode: number | null,
  ) {
    super(message);
  }

  /** The server refused the message for good (5xx): sending it again would not help. */
  get permanent(): boolean {
    return this.responseCode !== null && this.responseCode >= 500;
  }
}

/** Sends `message`; answers the server's reply code (250) or throws MailError. */
export async function sendMail(
  server: SmtpServer,
  message: MailMessage,
  timeoutMs = 20_000,
): Promise<number> {
  const transport = loadNodemailer().createTransport({
    host: server.host,
    port: server.port,
    secure: server.security === "tls",
    requireTLS: server.security === "starttls",
    ignoreTLS: server.security === "none",
    ...(server.user ? { auth: { user: server.user, pass: server.password ?? "" } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  try {
    const info = await transport.sendMail(message);
    const code = Number.parseInt(String(info.response ?? "250"), 10);
    return Number.isFinite(code) ? code : 250;
  } catch (e) {
    const err = e as { message?: string; responseCode?: number };
    throw new MailError(
      err.message ?? String(e),
      typeof err.responseCode === "number" ? err.responseCode : null,
    );
  } finally {
    transport.close();
  }
}
