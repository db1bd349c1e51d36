import { mkdtempSync, readdirSync, rmSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Hono } from "hono";
import { afterAll, describe, expect, it } from "vitest";
import { badRequest } from "../errors";
import { readMultipartFile } from "./multipart";

const spoolDir = mkdtempSync(path.join(os.tmpdir(), "clipshare-multipart-"));
afterAll(() => rmSync(spoolDir, { recursive: true, force: true }));

const BOUNDARY = "SpoolBoundary";
const fileFirstForm = Buffer.from(
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n` +
    `Content-Type: text/plain\r\n\r\nhello\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nx\r\n--${BOUNDARY}--\r\n`,
);

function appRejectingBeforeReading() {
  const app = new Hono();
  app.onError((e, c) => c.json({ error: (e as Error).message }, 400));
  app.post("/upload", async (c) => {
    await readMultipartFile(c, {
      fileField: "file",
      // The form names no target, so the file waits in the spool until the form ends.
      placed: (fields) => "path" in fields,
      spool: { dir: spoolDir, maxBytes: 1024 },
      // A consumer that refuses the file from its fields alone, without reading the stream. The
      // spooled file goes at once (as the request's own clean-up may remove it before the reader
      // opens it), so the reader handed over meets a missing file.
      onFile: async () => {
        for (const name of readdirSync(spoolDir)) unlinkSync(path.join(spoolDir, name));
        throw badRequest("no path", "missing_file");
      },
    });
    return c.text("stored");
  });
  return app;
}

describe("a spooled form file whose consumer refuses it", () => {
  it("answers 400 each time, with nothing left in the spool and no stray stream error", async () => {
    const app = appRejectingBeforeReading();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        app.request("/upload", {
          method: "POST",
          headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
          body: fileFirstForm,
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 400));
    // A stream error without a listener would surface as an unhandled error and fail this file.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readdirSync(spoolDir)).toEqual([]);
  });
});
