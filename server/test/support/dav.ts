import type { ApiClient } from "./test-app";

/** HTTP Basic as WebDAV clients send it. */
export const basicAuth = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

/** PROPFIND of the WebDAV root with a name and a password: 207 when they are taken. */
export const davPropfind = (t: Pick<ApiClient, "request">, user: string, password: string) =>
  t.request("PROPFIND", "/dav/", { headers: { authorization: basicAuth(user, password), depth: "0" } });
