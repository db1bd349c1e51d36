import { randomFillSync } from "node:crypto";

/** Random bytes drawn in blocks: one call to the system source per 409 ids. */
const randomPool = Buffer.alloc(4096);
let poolOffset = randomPool.length;
const idBytes = Buffer.alloc(16);

/**
 * A UUID (version 7 layout) that starts with the time in milliseconds: new
 * entries land at the end of the primary-key index instead of at random
 * places in it, which keeps writing a large log cheap.
 */
export function timeOrderedId(nowMs: number): string {
  if (poolOffset + 10 > randomPool.length) {
    randomFillSync(randomPool);
    poolOffset = 0;
  }
  randomPool.copy(idBytes, 6, poolOffset, poolOffset + 10);
  poolOffset += 10;
  idBytes.writeUIntBE(nowMs, 0, 6);
  idBytes[6] = (idBytes[6]! & 0x0f) | 0x70;
  idBytes[8] = (idBytes[8]! & 0x3f) | 0x80;
  const hex = idBytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
