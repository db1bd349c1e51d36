/**
 * Streaming multipart/form-data with one file part, fields in any order.
 * When the fields that place the file arrived before it, the file streams
 * straight to its destination. When it comes first (0.7.3 clients send
 * `file, path, use_multipart`), it is spooled to a temp file under the data
 * directory, within the upload size limit, and handed on once the form has
 * ended and every field is known. Nothing is ever held in memory.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import type { Context } from "hono";
import { badRequest, payloadTooLarge } from "../errors";
import { ingest } from "../lib/ingest";
import { SPOOL_PREFIX } from "../lib/spool";
import { taggedTempName } from "../lib/writer-tag";
import { requestStream } from "./body";

export interface FilePart {
  fieldName: string;
  filename: string;
  mimeType: string;
  stream: Readable;
  /** Fields known when the file is handed on: those before it, or all of them when it was spooled. */
  fields: Record<string, string>;
  /** The file's exact size when it was spooled (it came before the fields that place it). */
  size: number | null;
}

export interface MultipartFileOptions<T> {
  fileField: string;
  onFile: (part: FilePart) => Promise<T>;
  /** True when the fields seen so far decide where the file goes, so it can stream straight there. */
  placed: (fields: Record<string, string>) => boolean;
  /** Where a file that came too early waits, and how big it may be. */
  spool: { dir: string; maxBytes: number };
  /** Undo a file that was fully handled before the form turned out to be bad. */
  onAbandon?: (result: T) => Promise<unknown>;
}

export function isMultipart(c: Context): boolean {
  return /^multipart\/form-data/i.test(c.req.header("content-type") ?? "");
}

/** Resolves with `onFile`'s result for the first part named `fileField`, once the whole form was read. */
export function readMultipartFile<T>(c: Context, options: MultipartFileOptions<T>): Promise<T> {
  const contentType = c.req.header("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(contentType)) {
    throw badRequest("Expected a multipart/form-data body", "invalid_content_type");
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      limits: { files: 1, fields: 64, fieldSize: 64 * 1024, parts: 80 },
    });
  } catch {
    throw badRequest("Malformed multipart/form-data body", "invalid_multipart");
  }
  const source = requestStream(c);
  const { fileField, onFile, onAbandon } = options;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let fileStream: Readable | null = null;
    let work: Promise<T> | null = null;
    let spooled: Promise<{ file: string; size: number; info: busboy.FileInfo; name: string }> | null = null;
    let spoolFile: string | null = null;
    // The spooled file's reader is ours: a consumer that fails before reading it must not leave
    // it opening a file that is being removed (its ENOENT would have no listener).
    let spoolReader: Readable | null = null;
    const removeSpool = () => {
      spoolReader?.destroy();
      return spoolFile ? rm(spoolFile, { force: true }) : Promise.resolve();
    };
    const finish = (outcome: () => void) => {
      removeSpool().finally(outcome);
    };
    // On any form error the file consumer is stopped and allowed to clean up
    // (remove partial data) before the request is answered.
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      fileStream?.destroy();
      source.unpipe(parser);
      if (!source.destroyed) source.resume();
      const pending: Promise<unknown> = work
        ? work.then((result) => (onAbandon ? onAbandon(result) : undefined)).catch(() => undefined)
        : (spooled?.catch(() => undefined) ?? Promise.resolve());
      pending.finally(() => finish(() => reject(e)));
    };
    const fields: Record<string, string> = {};
    // A field after a file that is already streaming to its place could have changed that place.
    let lateField: string | null = null;
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) fail(payloadTooLarge(`Form field ${name} is too large`));
      else if (work) lateField ??= name;
      else fields[name] = value;
    });
    parser.on("file", (name, stream, info) => {
      // A form that ends inside this part makes busboy emit the error on the part's stream too,
      // possibly before any consumer listens (the consumer may still be preparing its target).
      // The parser's own error event fails the form; this only keeps the process alive.
      stream.on("error", () => undefined);
      if (name !== fileField || work || spooled) {
        stream.resume();
        return;
      }
      fileStream = stream;
      if (options.placed(fields)) {
        work = onFile({
          fieldName: name,
          filename: info.filename ?? "",
          mimeType: info.mimeType,
          stream,
          fields: { ...fields },
          size: null,
        });
        work.catch((e) => {
          stream.resume();
          fail(e);
        });
        return;
      }
      spoolFile = path.join(options.spool.dir, taggedTempName(SPOOL_PREFIX));
      const file = spoolFile;
      spooled = mkdir(options.spool.dir, { recursive: true })
        .then(() =>
          ingest(stream, (input, signal) => pipeline(input, createWriteStream(file), { signal }), {
            maxBytes: options.spool.maxBytes,
          }),
        )
        .then(({ bytes }) => ({ file, size: bytes, info, name }));
      spooled.catch((e) => {
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
      if (spooled) {
        spooled.then((s) => {
          if (settled) return;
          spoolReader = createReadStream(s.file).on("error", () => undefined);
          work = onFile({
            fieldName: s.name,
            filename: s.info.filename ?? "",
            mimeType: s.info.mimeType,
            stream: spoolReader,
            fields: { ...fields },
            size: s.size,
          });
          work.then(
            (v) => {
              settled = true;
              finish(() => resolve(v));
            },
            (e) => {
              settled = true;
              finish(() => reject(e));
            },
          );
        }, fail);
        return;
      }
      if (!work) return fail(badRequest(`Please provide the "${fileField}" field`, "missing_file"));
      work.then(
        (v) => {
          if (settled) return;
          settled = true;
          if (lateField) {
            const error = badRequest(
              `Form field "${lateField}" came after the file, which was already stored by the fields before it; send it before the file`,
              "field_after_file",
            );
            (onAbandon ? onAbandon(v) : Promise.resolve()).finally(() => reject(error));
            return;
          }
          resolve(v);
        },
        (e) => fail(e),
      );
    });
    source.on("error", fail);
    source.pipe(parser);
  });
}

/** The temp directory for form files that arrive before their fields. */
