/**
 * Which trigrams of a search needle the name index is asked for
 * (docs/decisions/0080-rare-trigrams-first.md). Both databases find a
 * substring by intersecting the posting lists of its trigrams, and a trigram
 * most names share ("txt", ".tx", "-0") has a list as long as the index:
 * reading it cost more than all the rest of a search. So the index is asked
 * only for the needle's rarest trigrams, and the names it returns are checked
 * against the whole needle.
 *
 * Which trigrams are rare is estimated from a random sample of indexed names,
 * kept in memory for a while. It is a planning statistic, safe to lose and to
 * be stale: a poor estimate makes a search slower, never wrong.
 */

/** Names in a sample: enough to tell a trigram in 1 name of 1,000 from one in most. */
export const SAMPLE_SIZE = 2048;
const SAMPLE_TTL_MS = 10 * 60_000;
/** After a failed sample, the next try waits this long (searches go on without estimates). */
const RETRY_MS = 10_000;
/** Trigrams asked for at most: each one more narrows the candidates, but its list is read too. */
const MAX_TERMS = 3;
/** Beyond the rarest trigram, only those in at most this share of the sample are asked for. */
const RARE_SHARE = 0.05;

export interface NameSampleTaken {
  names: string[];
  /** About how many entries the index holds in all. */
  rows: number;
}

export interface TrigramStats {
  /** Names sampled; 0 = no estimates. */
  sampled: number;
  rows: number;
  /** Per trigram (lower case), the number of sampled names holding it. */
  names: Map<string, number>;
}

export interface NamePlan {
  /** The trigrams to ask the index for, rarest first. */
  terms: string[];
  /** Entries expected to hold the rarest term (Infinity without estimates). */
  expected: number;
}

const NO_STATS: TrigramStats = { sampled: 0, rows: 0, names: new Map() };

/** The distinct trigrams of `text` in lower case, by code point, in order of first appearance. */
export function trigramsOf(text: string): string[] {
  const chars = [...text.toLowerCase()];
  const seen = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) seen.add(chars.slice(i, i + 3).join(""));
  return [...seen];
}

export function countTrigrams(taken: NameSampleTaken): TrigramStats {
  const names = new Map<string, number>();
  for (const name of taken.names) for (const t of trigramsOf(name)) names.set(t, (names.get(t) ?? 0) + 1);
  return { sampled: taken.names.length, rows: taken.rows, names };
}

/**
 * The rarest of `candidates` (trigrams of one needle the index can be asked for), and how
 * many entries the rarest is expected in. Null when there is no candidate.
 */
export function planTerms(candidates: string[], stats: TrigramStats): NamePlan | null {
  if (candidates.length === 0) return null;
  const count = (t: string) => stats.names.get(t) ?? 0;
  // Array.prototype.sort is stable: among equally rare trigrams the needle's order stays.
  const ranked = [...candidates].sort((a, b) => count(a) - count(b));
  const rarest = ranked[0]!;
  const terms = [rarest];
  for (const t of ranked.slice(1)) {
    if (terms.length === MAX_TERMS || count(t) > RARE_SHARE * stats.sampled) break;
    terms.push(t);
  }
  const expected =
    stats.sampled === 0 ? Number.POSITIVE_INFINITY : (stats.rows * count(rarest)) / stats.sampled;
  return { terms, expected };
}

/** The sample of one database's index, taken on first use and again after SAMPLE_TTL_MS. */
export class NameSample {
  private stats: TrigramStats | null = null;
  private takenAt = 0;
  private validMs = SAMPLE_TTL_MS;
  private pending: Promise<TrigramStats> | null = null;

  constructor(
    private readonly take: (size: number) => Promise<NameSampleTaken>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The current estimates; a stale sample answers while the next one is taken. */
  async current(): Promise<TrigramStats> {
    if (this.stats && this.now() - this.takenAt < this.validMs) return this.stats;
    this.pending ??= this.refresh();
    return this.stats ?? this.pending;
  }

  /** The index changed a lot (a crawl ended): the next search takes a new sample. */
  forget(): void {
    this.takenAt = Number.NEGATIVE_INFINITY;
  }

  private async refresh(): Promise<TrigramStats> {
    try {
      this.stats = countTrigrams(await this.take(SAMPLE_SIZE));
      this.validMs = SAMPLE_TTL_MS;
    } catch {
      // Searches stay correct without estimates; they are only slower.
      this.stats ??= NO_STATS;
      this.validMs = RETRY_MS;
    } finally {
      this.takenAt = this.now();
      this.pending = null;
    }
    return this.stats;
  }
}
