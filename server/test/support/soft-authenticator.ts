/**
 * A WebAuthn authenticator in software, as a browser and a security key would answer together:
 * an ES256 key pair per credential (node:crypto), authenticator data and a "none" attestation
 * (CBOR from @simplewebauthn/server's helpers), signatures over authenticatorData ‖
 * SHA-256(clientDataJSON). It is a real client of the passkey routes: nothing of the server is
 * replaced, and a wrong signature here is wrong for the server too.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

type Json = Record<string, any>;

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface SoftAuthenticatorOptions {
  /** The page's origin the browser writes into clientDataJSON. */
  origin: string;
  /** Whether signature counters are kept (platform passkeys often send 0 every time). */
  counts?: boolean;
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];
  constructor(private readonly options: SoftAuthenticatorOptions) {}

  /** navigator.credentials.create(): a new resident credential for the options' RP and user. */
  register(options: Json, { userVerified = true }: { userVerified?: boolean } = {}): Json {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]);
    const id = randomBytes(16);
    const rpId = options.rp.id as string;
    const credential: Credential = { id, privateKey, rpId, userHandle: options.user.id, counter: 0 };
    this.credentials.push(credential);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      this.authDataHead(rpId, FLAG_UP | FLAG_AT | (userVerified ? FLAG_UV : 0), 0),
      Buffer.alloc(16), // AAGUID: none given
      idLength,
      id,
      Buffer.from(isoCBOR.encode(cose)),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", new Uint8Array(authData)],
      ]) as never,
    );
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: "public-key",
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON: this.clientData("webauthn.create", options.challenge),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
    };
  }

  /**
   * navigator.credentials.get(): signs the options' challenge with `credential` (else the first
   * one the options allow, else the first one of their RP). `challenge` signs another challenge
   * instead (a forged or replayed one).
   */
  assert(
    options: Json,
    {
      credential,
      userVerified = true,
      challenge = options.challenge as string,
      counter,
    }: { credential?: Credential; userVerified?: boolean; challenge?: string; counter?: number } = {},
  ): Json {
    const allowed = ((options.allowCredentials ?? []) as { id: string }[]).map((c) => c.id);
    const chosen =
      credential ??
      this.credentials.find((c) => allowed.includes(b64url(c.id))) ??
      this.credentials.find((c) => c.rpId === options.rpId);
    if (!chosen) throw new Error("no credential for these options");
    if (counter !== undefined) chosen.counter = counter;
    else if (this.options.counts) chosen.counter += 1;
    const authData = this.authDataHead(
      options.rpId as string,
      FLAG_UP | (userVerified ? FLAG_UV : 0),
      this.options.counts || counter !== undefined ? chosen.counter : 0,
    );
    const clientDataJSON = this.clientData("webauthn.get", challenge);
    const signature = sign(
      "sha256",
      Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, "base64url"))]),
      chosen.privateKey,
    );
    return {
      id: b64url(chosen.id),
      rawId: b64url(chosen.id),
      type: "public-key",
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON,
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: chosen.userHandle,
      },
    };
  }

  private authDataHead(rpId: string, flags: number, counter: number): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count]);
  }

  private clientData(type: string, challenge: string): string {
    return b64url(
      Buffer.from(JSON.stringify({ type, challenge, origin: this.options.origin, crossOrigin: false })),
    );
  }
}

/** The signature's last byte flipped: still well-formed, no longer the key's. */
export function tamperedSignature(assertion: Json): Json {
  const signature = Buffer.from(assertion.response.signature, "base64url");
  signature[signature.length - 1]! ^= 0x01;
  return { ...assertion, response: { ...assertion.response, signature: b64url(signature) } };
}
