/**
 * Encrypted pastes in the browser: the text is sealed before it is sent and
 * opened after it is fetched; the key only ever lives in the link's fragment.
 */
import {
  decryptBytes,
  E2EError,
  encryptBytes,
  type FragmentKey,
  fromBase64Url,
  generateKeyBytes,
  importKey,
  keyFragment,
  toBase64Url,
  unwrapKey,
} from "@clipshare/shared";

/** Seals `text` under a fresh key; `password` (optional) wraps the key in the fragment. */
export async function sealPasteText(
  text: string,
  password: string,
): Promise<{ content: string; fragment: string }> {
  const raw = generateKeyBytes();
  const key = await importKey(raw);
  const content = toBase64Url(await encryptBytes(key, new TextEncoder().encode(text)));
  return { content, fragment: await keyFragment(raw, password || null) };
}

/** The text of an encrypted paste; E2EError when the key, the password or the ciphertext is wrong. */
export async function openPasteText(content: string, link: FragmentKey, password?: string): Promise<string> {
  if (link.kind === "none") throw new E2EError("bad_key", "This link has no key");
  const raw = link.kind === "key" ? link.raw : await unwrapKey(link.blob, password ?? "");
  const bytes = fromBase64Url(content);
  if (!bytes) throw new E2EError("bad_header", "The paste is not encrypted data");
  const plain = await decryptBytes(await importKey(raw), bytes);
  return new TextDecoder("utf-8", { fatal: false }).decode(plain);
}
