/**
 * Entry point: read config → build context → listen. SIGTERM/SIGINT stop
 * accepting connections, let in-flight requests finish, then close the database.
 */
import { ConfigError, loadConfig } from "./config";
import { createContext } from "./context";
import { createApp } from "./http/app";
import { serveApp } from "./http/node-server";
import { createLogger } from "./logger";

const SHUTDOWN_GRACE_MS = 10_000;
/** Housekeeping cadence (domain/housekeeping.ts): abandoned uploads and reservations, expired shares, stale tokens. */
const SWEEP_INTERVAL_MS = 5 * 60_000;

async function main() {
  // Everything this process creates (DATA_DIR, the database and its WAL, the secret key, stored
  // files) holds paste contents or secrets: owner-only, whatever umask the service was started with.
  process.umask(0o077);
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`ClipShare configuration error: ${e.message}\n`);
      process.exit(78);
    }
    throw e;
  }
  const log = createLogger(config.logLevel);
  const ctx = await createContext(config, { log });
  const app = createApp(ctx);

  const limits = {
    bodyIdleTimeoutMs: config.bodyIdleTimeoutSeconds * 1000,
    maxConnectionsPerIp: config.maxConnectionsPerIp,
  };
  const server = serveApp(app, { port: config.port, hostname: config.host, log, limits }, (info) => {
    const shownHost = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
    log.info(
      {
        port: info.port,
        database: config.database.dialect,
        dataDir: config.dataDir,
        web: config.webDistDir ? "built" : "not built",
      },
      `ClipShare listening on http://${shownHost}:${info.port}`,
    );
  });

  const sweep = async () => {
    try {
      await ctx.housekeeping.run();
    } catch (e) {
      log.warn({ err: e }, "Housekeeping sweep failed");
    }
  };
  const sweeper = setInterval(sweep, SWEEP_INTERVAL_MS);
  sweeper.unref();
  setTimeout(sweep, 10_000).unref();

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(sweeper);
    log.info({ signal }, "Shutting down: no new connections, finishing in-flight requests");
    const force = setTimeout(() => {
      log.warn("In-flight requests did not finish in time; closing anyway");
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    server.close(async () => {
      await ctx.close();
      log.info("Stopped");
      process.exit(0);
    });
    // Idle keep-alive sockets would otherwise hold close() open until they time out.
    if ("closeIdleConnections" in server) (server as { closeIdleConnections(): void }).closeIdleConnections();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((e) => {
  process.stderr.write(
    `ClipShare failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  );
  process.exit(1);
});
