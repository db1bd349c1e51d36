/**
 * Streaming multipart/form-data: form fields first, then one file part that is
 * handed on as a stream (never buffered). Fields after the file are refused:
 * they could change where the file should have gone.
 */
import { Readable } from "node:stream";
import busboy from "busboy";
import type { Context } from "hono";
import { badRequest, payloadTooLarge } from "../errors";

export interface FilePart {
  fieldName: string;
  filename: string;
  mimeType: string;
  stream: Readable;
  /** Fields that arrived before the file. */
  fields: Record<string, string>;
}

export function isMultipart(c: Context): boolean {
  return /^multipart\/form-data/i.test(c.req.header("content-type") ?? "");
}

/**
 * Calls `onFile` with the first part named `fileField`; resolves with its result
 * once the whole form was read.
 */
export function readMultipartFile<T>(
  c: Context,
  fileField: string,
  onFile: (part: FilePart) => Promise<T>,
  /** Undo a file that was fully handled before the form turned out to be bad. */
  onAbandon?: (result: T) => Promise<unknown>,
): Promise<T> {
  const contentType = c.req.header("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(contentType)) {
    throw badRequest("Expected a multipart/form-data body", "invalid_content_type");
  }
  const body = c.req.raw.body;
  if (!body) throw badRequest("Please provide file and path", "missing_file");
  const source = Readable.fromWeb(body as import("node:stream/web").ReadableStream);
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let fileStream: Readable | null = null;
    let work: Promise<T> | null = null;
    // On any form error the file consumer is stopped and allowed to clean up
    // (remove partial data) before the request is answered.
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      // Destroy without an error: a stream that already ended has no listener left for one.
      fileStream?.destroy();
      source.destroy();
      if (!work) return reject(e);
      work.then(
        (result) => (onAbandon ? onAbandon(result) : Promise.resolve()).finally(() => reject(e)),
        () => reject(e),
      );
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { "content-type": contentType },
        limits: { files: 1, fields: 64, fieldSize: 64 * 1024, parts: 80 },
      });
    } catch {
      throw badRequest("Malformed multipart/form-data body", "invalid_multipart");
    }
    const fields: Record<string, string> = {};
    // Multipart is sequential: a field after the file arrives once the file data is
    // complete, so it is noted and the file is undone when the form ends.
    let lateField: string | null = null;
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) fail(payloadTooLarge(`Form field ${name} is too large`));
      else if (work) lateField ??= name;
      else fields[name] = value;
    });
    parser.on("file", (name, stream, info) => {
      if (name !== fileField || work) {
        stream.resume();
        return;
      }
      fileStream = stream;
      work = onFile({
        fieldName: name,
        filename: info.filename ?? "",
        mimeType: info.mimeType,
        stream,
        fields: { ...fields },
      });
      work.catch((e) => {
        stream.resume();
        fail(e);
      });
    });
    parser.on("filesLimit", () => undefined);
    parser.on("error", (e) =>
      fail(badRequest(`Malformed multipart/form-data body: ${(e as Error).message}`, "invalid_multipart")),
    );
    parser.on("close", () => {
      if (settled) return;
      if (!work) return fail(badRequest(`Please provide the "${fileField}" field`, "missing_file"));
      work.then(
        (v) => {
          if (settled) return;
          if (lateField) {
            settled = true;
            const error = badRequest(
              `Form field "${lateField}" must come before the file`,
              "field_after_file",
            );
            (onAbandon ? onAbandon(v) : Promise.resolve()).finally(() => reject(error));
            return;
          }
          settled = true;
          resolve(v);
        },
        (e) => fail(e),
      );
    });
    source.on("error", fail);
    source.pipe(parser);
  });
}
