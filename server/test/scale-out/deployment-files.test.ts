/**
 * The Dockerfile, compose.yaml and nginx configuration shipped with ClipShare, checked without a
 * container engine: they must keep matching the scale-out rig the other tests in this folder run.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMPOSE_SITE, siteConf } from "../../../scripts/scale-out/nginx-conf.mjs";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

type Yaml = string | Yaml[] | { [key: string]: Yaml };

/**
 * Reads the block-style YAML subset compose.yaml is written in: nested maps, lists of scalars,
 * comments, quoted scalars; a flow list like ["CMD", "x"] stays one string. Throws on anything else.
 */
function readYaml(text: string): Yaml {
  const lines = text
    .split("\n")
    .map((raw, i) => ({ n: i + 1, raw: raw.replace(/(^|\s)#.*$/, "").trimEnd() }))
    .filter((l) => l.raw.trim() !== "")
    .map((l) => ({ ...l, indent: l.raw.length - l.raw.trimStart().length, text: l.raw.trim() }));
  let at = 0;
  const scalar = (v: string) => v.replace(/^"(.*)"$/, "$1").replace(/^'(.*)'$/, "$1");
  const block = (indent: number): Yaml => {
    const first = lines[at];
    if (!first || first.indent !== indent) throw new Error(`line ${first?.n}: bad indentation`);
    if (first.text.startsWith("- ")) {
      const list: Yaml[] = [];
      while (lines[at]?.indent === indent && lines[at]!.text.startsWith("- "))
        list.push(scalar(lines[at++]!.text.slice(2).trim()));
      return list;
    }
    const map: { [key: string]: Yaml } = {};
    while (lines[at]?.indent === indent) {
      const line = lines[at++]!;
      const m = /^([A-Za-z0-9_.-]+):(?:\s+(.*))?$/.exec(line.text);
      if (!m) throw new Error(`line ${line.n}: not a "key: value" line: ${line.text}`);
      if (m[1]! in map) throw new Error(`line ${line.n}: duplicate key ${m[1]}`);
      const next = lines[at];
      map[m[1]!] = m[2] !== undefined ? scalar(m[2]) : next && next.indent > indent ? block(next.indent) : "";
    }
    return map;
  };
  const doc = block(0);
  if (at !== lines.length) throw new Error(`line ${lines[at]?.n}: unexpected indentation`);
  return doc;
}

const asMap = (y: Yaml | undefined) => {
  if (!y || typeof y !== "object" || Array.isArray(y))
    throw new Error(`expected a map, got ${JSON.stringify(y)}`);
  return y;
};

describe("deployment files mirror the scale-out rig", () => {
  const compose = asMap(readYaml(read("compose.yaml")));
  const services = asMap(compose.services);

  it("compose.yaml: two ClipShare instances sharing PostgreSQL, S3 and SECRET_KEY, nginx in front", () => {
    expect(Object.keys(services).sort()).toEqual(["clipshare-a", "clipshare-b", "nginx", "postgres", "s3"]);
    const instances = ["clipshare-a", "clipshare-b"].map((name) => asMap(asMap(services[name]).environment));
    for (const env of instances) {
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@postgres:5432\/clipshare$/);
      expect(env.SECRET_KEY).toMatch(/^\$\{SECRET_KEY:\?/);
      expect(env.TRUST_PROXY).toBe("true");
      expect(env.STORAGE_ENDPOINT_ALLOW).toBe("s3:9000");
    }
    expect(instances[0]!.SECRET_KEY).toBe(instances[1]!.SECRET_KEY);
    expect(instances[0]!.DATABASE_URL).toBe(instances[1]!.DATABASE_URL);
    expect(instances.map((e) => e.INSTANCE_NAME)).toEqual(["a", "b"]);
    // Each instance has its own data directory, as in the rig.
    const volumes = ["clipshare-a", "clipshare-b"].map((name) => asMap(services[name]).volumes);
    expect(volumes).toEqual([["clipshare-a-data:/data"], ["clipshare-b-data:/data"]]);
    // The first instance migrates an empty database alone; the second starts once it is healthy.
    expect(asMap(asMap(asMap(services["clipshare-b"]).depends_on)["clipshare-a"]).condition).toBe(
      "service_healthy",
    );
    expect(Object.keys(asMap(compose.volumes)).sort()).toEqual(
      ["clipshare-a-data", "clipshare-b-data", "postgres-data", "s3-data"].sort(),
    );
  });

  it("the nginx configuration in compose is the rig's, generated from the same source", () => {
    const nginx = asMap(services.nginx);
    expect(nginx.volumes).toEqual(["./deploy/nginx/clipshare.conf:/etc/nginx/conf.d/default.conf:ro"]);
    expect(read("deploy/nginx/clipshare.conf")).toBe(siteConf(COMPOSE_SITE));
    // Its upstreams are the compose services on the port the image listens on.
    expect(COMPOSE_SITE.upstreams).toEqual(["clipshare-a:8787", "clipshare-b:8787"]);
    const conf = siteConf(COMPOSE_SITE);
    for (const directive of [
      "client_max_body_size 0;",
      "proxy_request_buffering off;",
      "proxy_set_header X-Forwarded-For $remote_addr;",
      "proxy_next_upstream error timeout;",
    ])
      expect(conf).toContain(directive);
    // Round robin without stickiness, every method passed on (WebDAV).
    const directives = conf.replace(/#.*$/gm, "");
    expect(directives).not.toMatch(/\b(ip_hash|hash|sticky|limit_except)\b/);
  });

  it("Dockerfile: multi-stage build, non-root runtime, health check on /api/health", () => {
    const dockerfile = read("Dockerfile").replace(/\\\n/g, " ");
    const stages = dockerfile.split("\n").filter((l) => /^FROM\s/.test(l));
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime.indexOf("USER node")).toBeLessThan(runtime.indexOf("CMD "));
    expect(runtime).toMatch(/^HEALTHCHECK .*\/api\/health/m);
    expect(runtime).toMatch(/^EXPOSE 8787$/m);
    expect(runtime).toMatch(/^CMD \["node", "server\/dist\/main\.js"\]$/m);
    // Reproducible installs from the lockfile only.
    expect(dockerfile).not.toMatch(/npm install\b/);
    expect(read(".dockerignore").split("\n")).toEqual(expect.arrayContaining(["**/node_modules", ".git"]));
    // compose builds this image once and runs it twice.
    expect(asMap(services["clipshare-a"]).build).toBe(".");
    expect(asMap(services["clipshare-b"]).image).toBe(asMap(services["clipshare-a"]).image);
  });
});
