/**
 * The single sign-on settings (one row, the administrator's): the OpenID Connect provider, its
 * client (the secret sealed with the server's SecretBox, answered only as set / not set), the
 * role mapping, the allowed e-mail domains and whether unknown people become users.
 */
import {
  ROLES,
  type Role,
  SSO_DEFAULT_SCOPES,
  type SsoSettings,
  type SsoSettingsBody,
  type SsoStatus,
} from "@clipshare/shared";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { SsoSettingsRow } from "../../db/schema";
import type { SecretBox } from "../../lib/crypto";
import type { SafeFetcher } from "../../lib/net/safe-fetch";

const ROW_ID = "default";

type RoleValues = Record<Role, string[]>;

/** What a sign-in needs, read from the row (with the secret opened). */
export interface ActiveProvider {
  issuerUrl: string;
  clientId: string;
  clientSecret: string | null;
  scopes: string;
  roleClaim: string;
  roleValues: RoleValues;
  defaultRole: Role;
  allowedDomains: string[];
  autoCreate: boolean;
  /** Changes with every save: a cached discovery of an older one is not used. */
  version: string;
}

function parseList(text: string): string[] {
  try {
    const list = JSON.parse(text) as unknown;
    return Array.isArray(list) ? list.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

function parseRoleValues(text: string): RoleValues {
  let parsed: Record<string, unknown> = {};
  try {
    parsed = (JSON.parse(text) as Record<string, unknown>) ?? {};
  } catch {}
  const of = (role: Role) =>
    Array.isArray(parsed[role]) ? (parsed[role] as unknown[]).filter((v) => typeof v === "string") : [];
  return { admin: of("admin"), user: of("user"), guest: of("guest") } as RoleValues;
}

const roleOrUser = (value: string): Role =>
  ((ROLES as readonly string[]).find((r) => r === value) as Role) ?? "user";
const isConfigured = (row: SsoSettingsRow) =>
  row.enabled === 1 && row.issuer_url !== "" && row.client_id !== "";

export class SsoSettingsService {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    private readonly fetcher: SafeFetcher,
  ) {}

  /** The row, made with its defaults (off, the standard scopes, everyone a user) on first use. */
  async row(): Promise<SsoSettingsRow> {
    const found = await this.db
      .selectFrom("sso_settings")
      .selectAll()
      .where("id", "=", ROW_ID)
      .executeTakeFirst();
    if (found) return found;
    await this.db
      .insertInto("sso_settings")
      .values({ id: ROW_ID, scopes: SSO_DEFAULT_SCOPES, updated_at: nowIso() } as SsoSettingsRow)
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    return this.db.selectFrom("sso_settings").selectAll().where("id", "=", ROW_ID).executeTakeFirstOrThrow();
  }

  async get(redirectUri: string): Promise<SsoSettings> {
    return this.present(await this.row(), redirectUri);
  }

  /** The issuer passes the URL-fetch rules here already (a literal private address is refused). */
  async update(body: SsoSettingsBody, redirectUri: string): Promise<SsoSettings> {
    if (body.issuer_url) this.fetcher.check(body.issuer_url);
    const row = await this.row();
    const values = parseRoleValues(row.role_values);
    const patch: Partial<SsoSettingsRow> = { updated_at: nowIso() };
    if (body.enabled !== undefined) patch.enabled = body.enabled ? 1 : 0;
    if (body.provider_name !== undefined) patch.provider_name = body.provider_name;
    if (body.issuer_url !== undefined) patch.issuer_url = body.issuer_url.replace(/\/+$/, "");
    if (body.client_id !== undefined) patch.client_id = body.client_id;
    if (body.client_secret !== undefined)
      patch.client_secret_enc = body.client_secret ? this.secrets.seal(body.client_secret) : null;
    if (body.scopes !== undefined) patch.scopes = body.scopes || SSO_DEFAULT_SCOPES;
    if (body.role_claim !== undefined) patch.role_claim = body.role_claim;
    if (body.admin_values || body.user_values || body.guest_values) {
      patch.role_values = JSON.stringify({
        admin: body.admin_values ?? values.admin,
        user: body.user_values ?? values.user,
        guest: body.guest_values ?? values.guest,
      });
    }
    if (body.default_role !== undefined) patch.default_role = body.default_role;
    if (body.allowed_domains !== undefined)
      patch.allowed_domains = JSON.stringify(
        body.allowed_domains.map((d) => d.toLowerCase().replace(/^@/, "")),
      );
    if (body.auto_create !== undefined) patch.auto_create = body.auto_create ? 1 : 0;
    await this.db.updateTable("sso_settings").set(patch).where("id", "=", ROW_ID).execute();
    return this.present({ ...row, ...patch }, redirectUri);
  }

  /** For the sign-in form: whether to offer the button, and the provider's name on it. */
  async status(): Promise<SsoStatus> {
    const row = await this.row();
    return { enabled: isConfigured(row), provider_name: row.provider_name || "SSO" };
  }

  /** The provider to sign in with, or null while single sign-on is off or incomplete. */
  async active(): Promise<ActiveProvider | null> {
    const row = await this.row();
    if (!isConfigured(row)) return null;
    return {
      issuerUrl: row.issuer_url,
      clientId: row.client_id,
      clientSecret: row.client_secret_enc ? this.secrets.open(row.client_secret_enc) : null,
      scopes: row.scopes || SSO_DEFAULT_SCOPES,
      roleClaim: row.role_claim,
      roleValues: parseRoleValues(row.role_values),
      defaultRole: roleOrUser(row.default_role),
      allowedDomains: parseList(row.allowed_domains),
      autoCreate: row.auto_create === 1,
      version: row.updated_at,
    };
  }

  private present(row: SsoSettingsRow, redirectUri: string): SsoSettings {
    const values = parseRoleValues(row.role_values);
    return {
      enabled: row.enabled === 1,
      provider_name: row.provider_name,
      issuer_url: row.issuer_url,
      client_id: row.client_id,
      has_client_secret: row.client_secret_enc !== null,
      scopes: row.scopes || SSO_DEFAULT_SCOPES,
      role_claim: row.role_claim,
      admin_values: values.admin,
      user_values: values.user,
      guest_values: values.guest,
      default_role: roleOrUser(row.default_role),
      allowed_domains: parseList(row.allowed_domains),
      auto_create: row.auto_create === 1,
      configured: isConfigured(row),
      redirect_uri: redirectUri,
    };
  }
}
