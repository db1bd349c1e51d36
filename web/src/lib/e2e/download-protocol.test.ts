import { describe, expect, it } from "vitest";
import { parseByteRange } from "./download-protocol";

describe("byte ranges a player asks of an encrypted file", () => {
  it("reads a closed, an open and a suffix range, clamped to the size", () => {
    expect(parseByteRange("bytes=0-99", 1000)).toEqual({ start: 0, end: 100 });
    expect(parseByteRange("bytes=900-", 1000)).toEqual({ start: 900, end: 1000 });
    expect(parseByteRange("bytes=-100", 1000)).toEqual({ start: 900, end: 1000 });
    expect(parseByteRange("bytes=-5000", 1000)).toEqual({ start: 0, end: 1000 });
    expect(parseByteRange("bytes=990-2000", 1000)).toEqual({ start: 990, end: 1000 });
  });

  it("answers the whole body for no range, several ranges or a malformed one", () => {
    for (const header of [null, "", "bytes=0-1,5-9", "items=0-1", "bytes=5-1", "bytes=-", "bytes=a-b"]) {
      expect(parseByteRange(header, 1000), String(header)).toBeNull();
    }
  });

  it("refuses a range past the end, and every range of an empty file", () => {
    expect(parseByteRange("bytes=1000-", 1000)).toBe("unsatisfiable");
    expect(parseByteRange("bytes=-0", 1000)).toBe("unsatisfiable");
    expect(parseByteRange("bytes=0-0", 0)).toBe("unsatisfiable");
    expect(parseByteRange("bytes=-10", 0)).toBe("unsatisfiable");
  });
});
