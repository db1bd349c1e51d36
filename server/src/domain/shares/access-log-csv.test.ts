import { describe, expect, it } from "vitest";
import { accessLogCsv, csvCell } from "./access-log-csv";

describe("access log CSV", () => {
  it("quotes commas, quotes and line breaks, and doubles quotes", () => {
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell(null)).toBe("");
    expect(csvCell(42)).toBe("42");
  });

  it("keeps spreadsheets from reading a cell as a formula", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r"])
      expect(csvCell(`${start}SUM(A1)`).replace(/^"/, "")).toMatch(/^'/);
    expect(csvCell("-1")).toBe("'-1");
    expect(csvCell(-1)).toBe("-1"); // a number the server wrote stays a number
    expect(csvCell("=1,2")).toBe(`"'=1,2"`);
  });

  it("writes the header first and one CRLF line per entry", async () => {
    async function* entries() {
      yield {
        id: "1",
        at: "2026-01-01T00:00:00.000Z",
        kind: "download" as const,
        bytes: 10,
        browser: "firefox" as const,
        os: "linux" as const,
        ip: null,
        path: null,
      };
    }
    let text = "";
    for await (const chunk of accessLogCsv(entries())) text += chunk;
    expect(text).toBe(
      "time,kind,bytes,browser,os,ip\r\n2026-01-01T00:00:00.000Z,download,10,firefox,linux,\r\n",
    );
  });
});
