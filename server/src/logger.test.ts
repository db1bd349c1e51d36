import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { accessLogWriter, createLogger } from "./logger";

function capture(level: string) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const log = pino({ level, base: { service: "clipshare" }, timestamp: pino.stdTimeFunctions.isoTime }, sink);
  return { log, lines };
}

describe("the request log line", () => {
  it("is one JSON line with the fields and order pino writes for a child's info line", () => {
    const ours = capture("info");
    const theirs = capture("info");
    const line = { reqId: "abc-1", method: "GET", path: '/api/paste/a"b\\c\u0001', status: 404, ms: 1.5 };
    accessLogWriter(ours.log)?.(line);
    const { reqId, ...fields } = line;
    theirs.log.child({ reqId }).info(fields, "request");
    const withoutTime = (s: string) => s.replace(/"time":"[^"]+"/, '"time":""');
    expect(ours.lines).toHaveLength(1);
    expect(withoutTime(ours.lines[0]!)).toBe(withoutTime(theirs.lines[0]!));
    const parsed = JSON.parse(ours.lines[0]!);
    expect(parsed.path).toBe(line.path);
    expect(Date.parse(parsed.time)).toBeGreaterThan(0);
  });

  it("is not written when the level hides info", () => {
    expect(accessLogWriter(createLogger("warn"))).toBeNull();
  });
});
