import { describe, expect, it } from "vitest";
import { countTrigrams, NameSample, type NameSampleTaken, planTerms, trigramsOf } from "./index-name-plan";

describe("trigramsOf", () => {
  it("gives each window of three code points once, in lower case", () => {
    expect(trigramsOf("AbcAbc")).toEqual(["abc", "bca", "cab"]);
    expect(trigramsOf("年度报告")).toEqual(["年度报", "度报告"]);
    expect(trigramsOf("ab")).toEqual([]);
  });
});

describe("planTerms", () => {
  // 1,000 sampled names of an index of 100,000: "txt" in all, "-07" in a tenth, "777" in one.
  const letters = (i: number) => String.fromCharCode(97 + (i % 26), 97 + (Math.floor(i / 26) % 26));
  const stats = countTrigrams({
    names: Array.from({ length: 1000 }, (_, i) =>
      i === 0 ? "f-0777.txt" : i % 10 === 0 ? `f-07${letters(i)}.txt` : `f-${letters(i)}.txt`,
    ),
    rows: 100_000,
  });

  it("asks for the rarest trigrams and leaves out those many names share", () => {
    const plan = planTerms(trigramsOf("-0777.txt"), stats);
    // Equally rare trigrams keep the needle's order.
    expect(plan?.terms).toEqual(["077", "777", "77."]);
    // One sampled name of 1,000 holds "777": about 100 of the 100,000 entries.
    expect(plan?.expected).toBe(100);
  });

  it("asks for three trigrams at most", () => {
    const rare = countTrigrams({ names: ["zzz"], rows: 1 });
    expect(planTerms(trigramsOf("qwertyuiop"), rare)?.terms).toEqual(["qwe", "wer", "ert"]);
  });

  it("without a sample expects any number of matches", () => {
    const none = countTrigrams({ names: [], rows: 0 });
    expect(planTerms(["abc"], none)).toEqual({ terms: ["abc"], expected: Number.POSITIVE_INFINITY });
    expect(planTerms([], none)).toBeNull();
  });
});

describe("NameSample", () => {
  const taker = () => {
    const calls: number[] = [];
    let fail = false;
    const take = async (size: number): Promise<NameSampleTaken> => {
      calls.push(size);
      if (fail) throw new Error("database gone");
      return { names: [`name-${calls.length}`], rows: 10 };
    };
    return { calls, take, failNext: () => (fail = true) };
  };

  it("takes a sample once and keeps it for ten minutes", async () => {
    let now = 0;
    const t = taker();
    const sample = new NameSample(t.take, () => now);
    expect((await sample.current()).names.has("nam")).toBe(true);
    now = 9 * 60_000;
    await sample.current();
    expect(t.calls).toHaveLength(1);
    now = 11 * 60_000;
    // A stale sample answers while the next one is taken.
    expect((await sample.current()).names.get("e-1")).toBe(1);
    await Promise.resolve();
    expect(t.calls).toHaveLength(2);
  });

  it("takes a new one after forget (a crawl ended)", async () => {
    const t = taker();
    const sample = new NameSample(t.take, () => 0);
    await sample.current();
    sample.forget();
    await sample.current();
    expect(t.calls).toHaveLength(2);
  });

  it("answers without estimates when the sample fails, and tries again later", async () => {
    let now = 0;
    const t = taker();
    t.failNext();
    const sample = new NameSample(t.take, () => now);
    expect((await sample.current()).sampled).toBe(0);
    await sample.current();
    expect(t.calls).toHaveLength(1);
    now = 11_000;
    await sample.current();
    expect(t.calls).toHaveLength(2);
  });
});
