import { describe, expect, it } from "vitest";
import { MULTIPART_PART_SIZE } from "../constants";
import { partPlanProblem, shareMultipartInitRequest } from "./multipart";

const MiB = 1024 * 1024;

describe("partPlanProblem", () => {
  it("accepts plans whose parts cover the file exactly, the last one short", () => {
    expect(partPlanProblem(11 * MiB, MULTIPART_PART_SIZE, 3)).toBeNull();
    expect(partPlanProblem(10 * MiB, MULTIPART_PART_SIZE, 2)).toBeNull();
    // A small file is one part of any size.
    expect(partPlanProblem(1000, 1000, 1)).toBeNull();
    // 60 GB with parts grown to stay within 10,000.
    const size = 60 * 1024 ** 3;
    const part = Math.ceil(size / 10_000);
    expect(partPlanProblem(size, part, Math.ceil(size / part))).toBeNull();
  });

  it("names what is wrong with the others", () => {
    expect(partPlanProblem(11 * MiB, MiB, 11)).toMatch(/at least 5242880 bytes/);
    expect(partPlanProblem(60 * 1024 ** 3, MULTIPART_PART_SIZE, 12_289)).toMatch(/between 1 and 10000/);
    expect(partPlanProblem(20 * MiB, MULTIPART_PART_SIZE, 3)).toMatch(/smaller than total_size/);
    expect(partPlanProblem(10 * MiB, MULTIPART_PART_SIZE, 3)).toMatch(/larger than total_size needs/);
    expect(partPlanProblem(6 * 1024 ** 3, 6 * 1024 ** 3, 1)).toMatch(/5 GiB/);
  });

  it("is what the init schema checks, with string numbers as forms send them", () => {
    const ok = shareMultipartInitRequest.safeParse({
      filename: "a.bin",
      total_size: String(11 * MiB),
      part_size: String(MULTIPART_PART_SIZE),
      part_count: "3",
    });
    expect(ok.success).toBe(true);
    const bad = shareMultipartInitRequest.safeParse({
      filename: "a.bin",
      total_size: 11 * MiB,
      part_size: MiB,
      part_count: 11,
    });
    expect(bad.success).toBe(false);
  });
});
