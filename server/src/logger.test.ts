import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { accessLogWriter, createLogger, type LevelName } from "./logger";

function capture(level: LevelName) {
  const lines: string[] = [];
  const log = createLogger(level, { write: (line) => lines.push(line) });
  return { log, lines };
}

const withoutTime = (line: string) => line.replace(/"time":"[^"]+"/, '"time":""');
const parsed = (lines: string[]) => lines.map((l) => JSON.parse(l));

describe("a log line", () => {
  it("is one JSON line: level, ISO time, service, bindings, fields, then msg", () => {
    const { log, lines } = capture("info");
    const before = Date.now();
    log.info("plain");
    log.child({ reqId: "r1" }).warn({ a: 1, nested: { list: [1, "x"] } }, 'said "hi"\n');
    log.info({ a: 1 });
    expect(lines.map(withoutTime)).toEqual([
      '{"level":30,"time":"","service":"clipshare","msg":"plain"}\n',
      '{"level":40,"time":"","service":"clipshare","reqId":"r1","a":1,"nested":{"list":[1,"x"]},"msg":"said \\"hi\\"\\n"}\n',
      '{"level":30,"time":"","service":"clipshare","a":1}\n',
    ]);
    const time = Date.parse(JSON.parse(lines[0]!).time);
    expect(time).toBeGreaterThanOrEqual(before - 1);
    expect(JSON.parse(lines[0]!).time).toBe(new Date(time).toISOString());
  });

  it("is written from the logger's level up; silent writes nothing", () => {
    const { log, lines } = capture("warn");
    log.trace("t");
    log.debug("d");
    log.info("i");
    log.warn("w");
    log.error("e");
    log.fatal("f");
    expect(parsed(lines).map((l) => [l.level, l.msg])).toEqual([
      [40, "w"],
      [50, "e"],
      [60, "f"],
    ]);
    expect([log.level, log.isLevelEnabled("info"), log.isLevelEnabled("error")]).toEqual([
      "warn",
      false,
      true,
    ]);

    const all = capture("trace");
    all.log.trace("t");
    expect(parsed(all.lines).map((l) => l.level)).toEqual([10]);

    const silent = capture("silent");
    silent.log.fatal("f");
    expect(silent.lines).toEqual([]);
    expect(silent.log.isLevelEnabled("fatal")).toBe(false);
    expect(() => createLogger("loud" as LevelName)).toThrow(/Unknown log level "loud"/);
  });

  it("carries a child's bindings after its parent's, and leaves the parent's lines alone", () => {
    const { log, lines } = capture("info");
    const child = log.child({ reqId: "r1" }).child({ davPath: "/a" });
    child.info({ status: 500 }, "failed");
    log.info("parent");
    expect(parsed(lines)).toEqual([
      {
        level: 30,
        time: expect.any(String),
        service: "clipshare",
        reqId: "r1",
        davPath: "/a",
        status: 500,
        msg: "failed",
      },
      { level: 30, time: expect.any(String), service: "clipshare", msg: "parent" },
    ]);
    expect(child.bindings()).toEqual({ service: "clipshare", reqId: "r1", davPath: "/a" });
    expect(child.level).toBe("info");
  });
});

describe("errors in a log line", () => {
  it("become {type, message, stack, ...own properties}, causes appended", () => {
    const { log, lines } = capture("info");
    const err = Object.assign(new Error("upload failed", { cause: new TypeError("socket hang up") }), {
      code: "ECONNRESET",
      attempt: 2,
    });
    log.warn({ err, fileId: 7 }, "Could not abort");
    const [line] = parsed(lines);
    expect(Object.keys(line)).toEqual(["level", "time", "service", "err", "fileId", "msg"]);
    expect(line.err).toEqual({
      type: "Error",
      message: "upload failed: socket hang up",
      stack: expect.stringMatching(
        /^Error: upload failed\n {4}at .*\ncaused by: TypeError: socket hang up\n/s,
      ),
      code: "ECONNRESET",
      attempt: 2,
    });
  });

  it("logged on its own is the line's err, and its message the line's msg", () => {
    const { log, lines } = capture("info");
    class StorageError extends Error {
      status = 503;
    }
    log.error(new StorageError("bucket gone"));
    log.error(new AggregateError([new Error("connect ECONNREFUSED ::1")], ""), "Lost the channel");
    const [own, aggregate] = parsed(lines);
    expect(own.msg).toBe("bucket gone");
    expect(own.err).toMatchObject({ type: "StorageError", message: "bucket gone", status: 503 });
    expect(own.err.stack).toMatch(/^Error: bucket gone\n/);
    expect(aggregate.err.aggregateErrors).toEqual([
      { type: "Error", message: "connect ECONNREFUSED ::1", stack: expect.stringContaining("ECONNREFUSED") },
    ]);
  });

  it("with a cause that leads back to itself is written, the cycle cut", () => {
    const { log, lines } = capture("info");
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    a.cause = b;
    log.error({ err: a }, "cycle");
    expect(JSON.parse(lines[0]!).err.message).toBe("a: b: a: ...");
  });
});

describe("what a log line leaves out or cannot write", () => {
  it("censors passwords, tokens, keys, secrets, credential headers and URL signatures, without touching the caller's object", () => {
    const { log, lines } = capture("info");
    const fields = {
      password: "hunter2",
      user: { name: "ann", password: "s3cret", apiKey: "cs_live_key" },
      token: "tok-1",
      secret: "shh",
      secretAccessKey: "aws-secret",
      share: { accessToken: "share-token-9" },
      url: "/api/paste/abc?token=t0k3n&x=1",
      req: {
        method: "GET",
        url: "/api/fs/put?expires=9&signature=deadbeef",
        headers: {
          authorization: "Basic YTpi",
          cookie: "cs_session=c00k1e",
          host: "clip",
          referer: "https://clip/p?password=pw1",
        },
      },
      res: {
        headers: {
          "set-cookie": "cs_access=s3tc00k",
          location: "https://s3/x?X-Amz-Signature=a1b2c3&X-Amz-Date=1",
        },
      },
    };
    log.info(fields, "login");
    log.child({ password: "p", admin: { password: "q", id: 1 } }).info("bound");
    expect(lines.join("")).not.toMatch(
      /hunter2|s3cret|cs_live_key|tok-1|shh|aws-secret|share-token-9|t0k3n|deadbeef|YTpi|c00k1e|pw1|s3tc00k|a1b2c3|"p"|"q"/,
    );
    const [login, bound] = parsed(lines);
    expect(login).toMatchObject({
      user: { name: "ann", password: "[Redacted]" },
      url: "/api/paste/abc?token=[Redacted]&x=1",
      req: { method: "GET", url: "/api/fs/put?expires=9&signature=[Redacted]", headers: { host: "clip" } },
      res: { headers: { location: "https://s3/x?X-Amz-Signature=[Redacted]&X-Amz-Date=1" } },
    });
    expect(bound).toMatchObject({ admin: { id: 1 } });
    expect(fields.user.password).toBe("s3cret");
    expect(fields.req.headers.authorization).toBe("Basic YTpi");
  });

  it("writes circular references and BigInt as text and never throws", () => {
    const { log, lines } = capture("info");
    const loop: Record<string, unknown> = { name: "loop" };
    loop.self = loop;
    const shared = { id: 1 };
    log.info({ loop, pair: [shared, shared], big: 2n ** 70n }, "odd values");
    const hostile = {
      get boom(): never {
        throw new Error("getter exploded");
      },
    };
    expect(() => log.warn(hostile, "still written")).not.toThrow();
    const [odd, written] = parsed(lines);
    expect(lines[0]).toContain('"self":"[Circular]"');
    expect(odd.pair).toEqual([{ id: 1 }, { id: 1 }]);
    expect(lines[0]).toContain('"big":1180591620717411303424');
    expect(written).toMatchObject({ level: 40, msg: "still written", logError: expect.any(String) });
  });
});

describe("the request log line", () => {
  it("is exactly the line a child logger's info call writes", () => {
    const ours = capture("info");
    const theirs = capture("info");
    const line = { reqId: "abc-1", method: "GET", path: '/api/paste/a"b\\c\u0001', status: 404, ms: 1.5 };
    accessLogWriter(ours.log)?.(line);
    const { reqId, ...fields } = line;
    theirs.log.child({ reqId }).info(fields, "request");
    expect(ours.lines).toHaveLength(1);
    expect(withoutTime(ours.lines[0]!)).toBe(withoutTime(theirs.lines[0]!));
    expect(JSON.parse(ours.lines[0]!).path).toBe(line.path);
  });

  it("is not written when the level hides info", () => {
    expect(accessLogWriter(createLogger("warn"))).toBeNull();
  });
});

describe("stdout", () => {
  it("gets every line, the last one before process.exit too, though a slow reader fills the pipe, and never waits for it", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "clipshare-log-"));
    const script = path.join(dir, "exit.ts");
    // Reading process.stdout makes Node switch the pipe to non-blocking: full, it answers EAGAIN.
    writeFileSync(
      script,
      `import { createLogger } from ${JSON.stringify(fileURLToPath(new URL("./logger.ts", import.meta.url)))};
      void process.stdout;
      const log = createLogger("info");
      const started = performance.now();
      for (let i = 0; i < 3000; i++) log.info({ i, pad: "x".repeat(200) }, "filler");
      log.fatal({ loggingMs: performance.now() - started }, "last words");
      process.exit(3);`,
    );
    try {
      const child = spawn(process.execPath, ["--import", "tsx", script], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      const exited = new Promise((resolve) => child.on("exit", resolve));
      const ended = new Promise((resolve) => child.stdout.on("end", resolve));
      const chunks: Buffer[] = [];
      child.stdout.on("data", (c: Buffer) => chunks.push(c));
      // Read nothing for a while: the child fills the pipe and its writes meet EAGAIN.
      child.stdout.pause();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      child.stdout.resume();
      const code = await exited;
      await ended;
      const lines = Buffer.concat(chunks).toString().split("\n").filter(Boolean);
      expect(code).toBe(3);
      expect(lines).toHaveLength(3001);
      expect(JSON.parse(lines[2999]!).i).toBe(2999);
      const last = JSON.parse(lines[3000]!);
      expect(last).toMatchObject({ level: 60, msg: "last words" });
      // The reader took nothing for 1.5 s; the log calls did not wait for it.
      expect(last.loggingMs).toBeLessThan(1000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
