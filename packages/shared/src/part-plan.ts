import { MULTIPART_MAX_PARTS, MULTIPART_PART_SIZE } from "./constants";

/** S3 (and ClipShare's LOCAL sessions) accept at most this many parts per upload. */
export const MAX_PARTS = MULTIPART_MAX_PARTS;
/** Grown part sizes are whole MiB, so every part but the last stays a round size. */
const MIB = 1024 * 1024;

export interface PlannedPart {
  partNumber: number;
  start: number;
  /** Exclusive. */
  end: number;
  size: number;
}

export interface PartPlan {
  totalSize: number;
  partSize: number;
  partCount: number;
}

/**
 * 5 MiB parts, grown (in whole MiB) when a file would need more than 10,000
 * of them: storage refuses part number 10,001, and the part size cannot
 * change in the middle of an upload.
 */
export function partSizeFor(totalSize: number, basePartSize = MULTIPART_PART_SIZE): number {
  const needed = Math.ceil(Math.max(0, totalSize) / MAX_PARTS);
  if (needed <= basePartSize) return basePartSize;
  return Math.ceil(needed / MIB) * MIB;
}

export function planParts(totalSize: number, partSize = partSizeFor(totalSize)): PartPlan {
  return { totalSize, partSize, partCount: Math.max(1, Math.ceil(totalSize / partSize)) };
}

/** Byte range of each part of a plan. */
export function plannedParts(plan: PartPlan): PlannedPart[] {
  const parts: PlannedPart[] = [];
  for (let partNumber = 1; partNumber <= plan.partCount; partNumber++) {
    const start = (partNumber - 1) * plan.partSize;
    const end = Math.min(plan.totalSize, start + plan.partSize);
    parts.push({ partNumber, start, end, size: end - start });
  }
  return parts;
}

/** Multipart only pays off beyond two parts; smaller files go up in one request. */
export function usesMultipart(totalSize: number, basePartSize = MULTIPART_PART_SIZE): boolean {
  return planParts(totalSize, partSizeFor(totalSize, basePartSize)).partCount > 2;
}
