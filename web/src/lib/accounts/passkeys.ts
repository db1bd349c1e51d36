import type { AddPasskeyRequest, PasskeyAssertion, PasskeyDto, PasskeyOptions } from "@clipshare/shared";
import { api } from "../api";

/**
 * The browser's half of passkeys (docs/accounts.md#passkeys): the server's options go to
 * navigator.credentials through @simplewebauthn/browser, which is loaded on first use only,
 * so the sign-in page carries none of it until someone presses the button.
 */

type Options = PasskeyOptions["options"];

const browserHalf = () => import("@simplewebauthn/browser");

export const passkeysSupported = () =>
  typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";

/** The person closed the browser's prompt, or it timed out: nothing to report as a fault. */
export function isPasskeyCancel(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  const code = (err as { code?: unknown } | null)?.code;
  return name === "NotAllowedError" || name === "AbortError" || code === "ERROR_CEREMONY_ABORTED";
}

/** navigator.credentials.get() with the server's options; the answer to send back. */
export async function signWithPasskey(options: Options): Promise<PasskeyAssertion> {
  const { startAuthentication } = await browserHalf();
  return (await startAuthentication({ optionsJSON: options as never })) as PasskeyAssertion;
}

async function createPasskey(options: Options): Promise<AddPasskeyRequest["response"]> {
  const { startRegistration } = await browserHalf();
  return (await startRegistration({ optionsJSON: options as never })) as AddPasskeyRequest["response"];
}

/** Options for a sign-in: for the account of a second-factor challenge, or for anyone's passkey. */
export const passkeySignInOptions = async (challenge?: string) =>
  (
    await api.post<PasskeyOptions>("/admin/login/passkey/options", challenge ? { challenge } : {}, {
      auth: "none",
      context: "login",
    })
  ).options;

/** One's own passkeys in My account. A refused passkey is a 401 about it, not the session. */
export const passkeysApi = {
  list: (signal?: AbortSignal) => api.get<{ passkeys: PasskeyDto[] }>("/account/passkeys", { signal }),
  async add(name: string): Promise<PasskeyDto> {
    const { options } = await api.post<PasskeyOptions>("/account/passkeys/options");
    const response = await createPasskey(options);
    return api.post<PasskeyDto>("/account/passkeys", { name, response }, { context: "change-password" });
  },
  rename: (id: string, name: string) =>
    api.put<PasskeyDto>(`/account/passkeys/${encodeURIComponent(id)}`, { name }),
  remove: (id: string) => api.delete<null>(`/account/passkeys/${encodeURIComponent(id)}`),
};
