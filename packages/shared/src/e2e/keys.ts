/**
 * Keys of encrypted shares. The key is 32 random bytes carried in the link's
 * fragment (after "#", which browsers never send to a server):
 *
 *   #k.<base64url key>                         the key itself
 *   #p.<base64url iterations|salt|iv|wrapped>  the key wrapped with the share password
 *
 * The wrap: PBKDF2-HMAC-SHA256 (iterations as uint32 big-endian, 16-byte salt)
 * derives an AES-256-GCM key that seals the 32 key bytes under a 12-byte iv.
 * Only someone holding both the link and the password gets the key.
 */
import { type Bytes, E2EError, type E2EKey, parseHeader, plainSizeOf, randomBytes } from "./format";
import { decryptBytes, encryptBytes } from "./stream";

export const E2E_KEY_BYTES = 32;
/**
 * OWASP's figure for PBKDF2-HMAC-SHA256. PBKDF2 rather than a memory-hard
 * function because WebCrypto has it natively in browsers, service workers and
 * Node; Argon2 would mean shipping WebAssembly to every visitor of a paste.
 */
export const E2E_PBKDF2_ITERATIONS = 600_000;
/** A wrapped link names its iteration count; a reader refuses absurd ones (a hostile link could freeze the tab). */
const MAX_ITERATIONS = 10_000_000;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const WRAP_AAD = /* @__PURE__ */ new TextEncoder().encode("clipshare-e2e-key-wrap-v1");

export function generateKeyBytes(): Bytes {
  return randomBytes(E2E_KEY_BYTES);
}

export function importKey(raw: Uint8Array): Promise<E2EKey> {
  if (raw.length !== E2E_KEY_BYTES) throw new E2EError("bad_key", "The key in this link is damaged");
  return globalThis.crypto.subtle.importKey("raw", raw as Bytes, "AES-GCM", false, ["encrypt", "decrypt"]);
}

async function passwordKey(password: string, salt: Bytes, iterations: number): Promise<E2EKey> {
  const subtle = globalThis.crypto.subtle;
  const base = await subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, [
    "deriveKey",
  ]);
  return subtle.deriveKey(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/** The fragment (without "#") that carries `raw`, wrapped with `password` when one is given. */
export async function keyFragment(
  raw: Uint8Array,
  password?: string | null,
  iterations = E2E_PBKDF2_ITERATIONS,
): Promise<string> {
  if (!password) return `k.${toBase64Url(raw)}`;
  const salt = randomBytes(SALT_BYTES);
  const iv = randomBytes(IV_BYTES);
  const wrapped = new Uint8Array(
    await globalThis.crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: WRAP_AAD },
      await passwordKey(password, salt, iterations),
      raw as Bytes,
    ),
  );
  const blob = new Uint8Array(4 + SALT_BYTES + IV_BYTES + wrapped.length);
  new DataView(blob.buffer).setUint32(0, iterations);
  blob.set(salt, 4);
  blob.set(iv, 4 + SALT_BYTES);
  blob.set(wrapped, 4 + SALT_BYTES + IV_BYTES);
  return `p.${toBase64Url(blob)}`;
}

/** What a link's fragment holds: nothing usable, the key, or a key that needs the password. */
export type FragmentKey = { kind: "none" } | { kind: "key"; raw: Bytes } | { kind: "password"; blob: Bytes };

export function readFragment(fragment: string): FragmentKey {
  const value = fragment.replace(/^#/, "");
  const bytes = value.length > 2 ? fromBase64Url(value.slice(2)) : null;
  if (value.startsWith("k.") && bytes?.length === E2E_KEY_BYTES) return { kind: "key", raw: bytes };
  if (value.startsWith("p.") && bytes?.length === 4 + SALT_BYTES + IV_BYTES + E2E_KEY_BYTES + 16)
    return { kind: "password", blob: bytes };
  return { kind: "none" };
}

/** The key of a password-wrapped fragment; E2EError "wrong_password" when the password does not open it. */
export async function unwrapKey(blob: Bytes, password: string): Promise<Bytes> {
  const iterations = new DataView(blob.buffer, blob.byteOffset).getUint32(0);
  if (iterations < 1 || iterations > MAX_ITERATIONS)
    throw new E2EError("bad_key", "The key in this link is damaged");
  const salt = blob.slice(4, 4 + SALT_BYTES);
  const iv = blob.slice(4 + SALT_BYTES, 4 + SALT_BYTES + IV_BYTES);
  const wrapped = blob.slice(4 + SALT_BYTES + IV_BYTES);
  try {
    return new Uint8Array(
      await globalThis.crypto.subtle.decrypt(
        { name: "AES-GCM", iv, additionalData: WRAP_AAD },
        await passwordKey(password, salt, iterations),
        wrapped,
      ),
    );
  } catch {
    throw new E2EError("wrong_password", "Wrong password");
  }
}

// ---- metadata record --------------------------------------------------------------

/** What an encrypted file share hides from the server: its real name and type. */
export interface E2EMetadata {
  name: string;
  type: string;
}

/** The metadata record: the JSON of `meta`, sealed as its own stream under the share's key, in base64url. */
export async function sealMetadata(key: E2EKey, meta: E2EMetadata): Promise<string> {
  const json = JSON.stringify({ name: meta.name, type: meta.type });
  return toBase64Url(await encryptBytes(key, new TextEncoder().encode(json)));
}

export async function openMetadata(key: E2EKey, record: string): Promise<E2EMetadata> {
  const bytes = fromBase64Url(record);
  if (!bytes) throw new E2EError("bad_header", "The encrypted file details are damaged");
  const parsed = JSON.parse(new TextDecoder().decode(await decryptBytes(key, bytes))) as Partial<E2EMetadata>;
  return { name: String(parsed.name ?? "file"), type: String(parsed.type ?? "application/octet-stream") };
}

/**
 * Whether `text` is an encrypted stream in base64url (the content of an
 * encrypted paste): valid characters, a version 1 header and a size some
 * plaintext gives. Servers check it so a client cannot mark plaintext encrypted.
 */
export function isSealedText(text: string): boolean {
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length % 4 === 1) return false;
  const head = fromBase64Url(text.slice(0, 24));
  if (!head) return false;
  try {
    const { chunkSize } = parseHeader(head);
    return plainSizeOf(Math.floor((text.length * 3) / 4), chunkSize) !== null;
  } catch {
    return false;
  }
}

// ---- base64url ------------------------------------------------------------------------

export function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Bytes of a base64url string, or null when it is not one. */
export function fromBase64Url(text: string): Bytes | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
