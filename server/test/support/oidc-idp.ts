/**
 * A real OpenID Connect provider for the single sign-on tests: oidc-provider on a loopback
 * port, with one confidential client, static test people, and a login form of its own at
 * /interaction/:uid (the browser test fills it; HTTP tests post it with a cookie jar). Consent
 * is granted on the person's behalf, so signing in is the only step.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type Configuration } from "oidc-provider";

export interface IdpPerson {
  sub: string;
  password: string;
  email: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** host:port, for URL_FETCH_ALLOW. */
  hostPort: string;
  people: Map<string, IdpPerson>;
  close(): Promise<void>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function loginPage(uid: string, failed: boolean): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Test IdP sign-in</title></head>
<body><main><h1>Test IdP</h1>${failed ? "<p role=alert>Wrong name or password</p>" : ""}
<form method="post" action="/interaction/${escapeHtml(uid)}">
<label>Name <input name="login" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in at the IdP</button></form></main></body></html>`;
}

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/** Starts the provider (on `port`, or any free one); `redirectUris` are the ClipShare callbacks it accepts. */
export async function startTestIdp(redirectUris: string[], people: IdpPerson[], port = 0): Promise<TestIdp> {
  const byLogin = new Map(people.map((p) => [p.email, p]));
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "clipshare-test";
  const clientSecret = "test-client-secret-that-is-long-enough-0123456789";
  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "preferred_username", "groups"],
    },
    findAccount: async (_ctx, sub) => {
      const person = [...byLogin.values()].find((p) => p.sub === sub);
      if (!person) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: person.email,
          email_verified: person.email_verified ?? true,
          name: person.name,
          preferred_username: person.email.split("@")[0],
          groups: person.groups ?? [],
        }),
      };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ["clipshare-test-idp-cookie-key"] },
    // Consent is given on the person's behalf: the test only signs in.
    loadExistingGrant: async (ctx) => {
      const { oidc } = ctx;
      if (!oidc.session?.accountId || !oidc.client) return undefined;
      const grant = new oidc.provider.Grant({
        clientId: oidc.client.clientId,
        accountId: oidc.session.accountId,
      });
      grant.addOIDCScope(String(oidc.params?.scope ?? "openid"));
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();
  server.on("request", async (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/interaction\/([^/?]+)/.exec(req.url ?? "");
    if (!match) return callback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      if (req.method === "GET") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(loginPage(details.uid, false));
        return;
      }
      const form = await formOf(req);
      const person = byLogin.get(form.get("login") ?? "");
      if (!person || person.password !== form.get("password")) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(loginPage(details.uid, true));
        return;
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: person.sub } },
        { mergeWithLastSubmission: false },
      );
    } catch (e) {
      res.writeHead(400, { "content-type": "text/plain" }).end(String((e as Error).message));
    }
  });
  return {
    issuer,
    clientId,
    clientSecret,
    hostPort: new URL(issuer).host,
    people: byLogin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser's cookie jar for the provider's own pages (names are unique there, so paths are ignored). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/**
 * Signs `login` in at the provider, from ClipShare's authorization redirect to the URL the
 * provider sends the browser back to (ClipShare's callback, or its error redirect).
 */
export async function signInAtIdp(
  idp: TestIdp,
  authorizationUrl: string,
  login: string,
  password: string,
): Promise<string> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (!url.startsWith(idp.issuer)) return url;
    let res = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.store(res);
    if (res.status === 200 && new URL(url).pathname.startsWith("/interaction/")) {
      await res.text();
      res = await fetch(url, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ login, password }).toString(),
      });
      jar.store(res);
    }
    const location = res.headers.get("location");
    if (!location) throw new Error(`The IdP answered ${res.status} at ${url}: ${await res.text()}`);
    url = new URL(location, url).href;
  }
  throw new Error("The IdP redirected too often");
}
