/** What a browser sends back to `path` from the cookies a response set (their Path attribute honoured). */
export function cookieFor(res: Response, path: string): string {
  return res.headers
    .getSetCookie()
    .filter((c) => {
      const scope = /;\s*Path=([^;]+)/i.exec(c)?.[1];
      return !scope || path.startsWith(scope);
    })
    .map((c) => c.split(";")[0]!)
    .join("; ");
}
