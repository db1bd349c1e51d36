import {
  ROLES,
  type Role,
  SSO_DEFAULT_SCOPES,
  type SsoSettings,
  type SsoSettingsBody,
} from "@clipshare/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { PasswordField } from "../../../components/password-input";
import { SettingsFormCard } from "../../../components/settings-form-card";
import { CheckboxField } from "../../../components/ui/checkbox";
import { SelectField, TextField } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { ssoApi } from "../../../lib/accounts/sso-api";

const SETTINGS_KEY = ["sso-settings"];

/** Comma- or space-separated words (claim values, e-mail domains) as a list. */
const words = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((w) => w.trim())
    .filter(Boolean);

interface Form {
  enabled: boolean;
  name: string;
  issuer: string;
  clientId: string;
  secret: string;
  scopes: string;
  roleClaim: string;
  admins: string;
  users: string;
  guests: string;
  defaultRole: Role;
  domains: string;
  autoCreate: boolean;
}

const formOf = (s: SsoSettings): Form => ({
  enabled: s.enabled,
  name: s.provider_name,
  issuer: s.issuer_url,
  clientId: s.client_id,
  secret: "",
  scopes: s.scopes,
  roleClaim: s.role_claim,
  admins: s.admin_values.join(", "),
  users: s.user_values.join(", "),
  guests: s.guest_values.join(", "),
  defaultRole: s.default_role,
  domains: s.allowed_domains.join(", "),
  autoCreate: s.auto_create,
});

/**
 * Settings card "Single sign-on" (administrators): the OpenID Connect provider and client (the
 * secret is never shown, only whether one is set), how a claim maps to roles, the e-mail domains
 * that may sign in, and whether unknown people become users.
 */
export function SsoSettingsCard() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const query = useQuery({ queryKey: SETTINGS_KEY, queryFn: ({ signal }) => ssoApi.settings(signal) });
  const [form, setForm] = useState<Form | null>(null);
  const [issuerInvalid, setIssuerInvalid] = useState(false);
  useEffect(() => {
    if (query.data) setForm(formOf(query.data));
  }, [query.data]);
  const save = useMutation({
    mutationFn: (body: Partial<SsoSettingsBody>) => ssoApi.saveSettings(body),
    onSuccess: (data) => {
      qc.setQueryData(SETTINGS_KEY, data);
      void qc.invalidateQueries({ queryKey: ["sso-status"] });
    },
  });
  const set = (changes: Partial<Form>) => setForm((f) => (f ? { ...f, ...changes } : f));

  function onSave() {
    if (!form) return false;
    const issuer = form.issuer.trim();
    const bad = issuer !== "" && !/^https?:\/\/\S+$/i.test(issuer);
    setIssuerInvalid(bad);
    if (bad) return false;
    return save.mutateAsync({
      enabled: form.enabled,
      provider_name: form.name.trim(),
      issuer_url: issuer,
      client_id: form.clientId.trim(),
      ...(form.secret ? { client_secret: form.secret } : {}),
      scopes: form.scopes.trim() || SSO_DEFAULT_SCOPES,
      role_claim: form.roleClaim.trim(),
      admin_values: words(form.admins),
      user_values: words(form.users),
      guest_values: words(form.guests),
      default_role: form.defaultRole,
      allowed_domains: words(form.domains),
      auto_create: form.autoCreate,
    });
  }

  return (
    <SettingsFormCard
      id="settings-sso"
      title={t("settings.sso.title")}
      description={t("settings.sso.description")}
      query={query}
      saving={save.isPending}
      onSave={onSave}
    >
      {form ? (
        <>
          <CheckboxField
            label={t("settings.sso.enabled")}
            checked={form.enabled}
            onCheckedChange={(enabled) => set({ enabled })}
          />
          <TextField
            label={t("settings.sso.providerName")}
            hint={t("settings.sso.providerNameHint")}
            maxLength={60}
            value={form.name}
            onChange={(e) => set({ name: e.target.value })}
          />
          <TextField
            label={t("settings.sso.issuer")}
            hint={t("settings.sso.issuerHint")}
            error={issuerInvalid ? t("settings.sso.issuerInvalid") : null}
            type="url"
            value={form.issuer}
            onChange={(e) => set({ issuer: e.target.value })}
          />
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {t("settings.sso.redirectUri")}{" "}
            <code className="break-all rounded bg-slate-100 px-1 dark:bg-slate-800">
              {query.data?.redirect_uri}
            </code>
          </p>
          <TextField
            label={t("settings.sso.clientId")}
            autoComplete="off"
            value={form.clientId}
            onChange={(e) => set({ clientId: e.target.value })}
          />
          <PasswordField
            label={t("settings.sso.clientSecret")}
            hint={
              query.data?.has_client_secret ? t("settings.sso.secretSet") : t("settings.sso.secretNotSet")
            }
            autoComplete="new-password"
            value={form.secret}
            onChange={(secret) => set({ secret })}
          />
          <TextField
            label={t("settings.sso.scopes")}
            value={form.scopes}
            onChange={(e) => set({ scopes: e.target.value })}
          />
          <TextField
            label={t("settings.sso.roleClaim")}
            hint={t("settings.sso.roleClaimHint")}
            value={form.roleClaim}
            onChange={(e) => set({ roleClaim: e.target.value })}
          />
          <TextField
            label={t("settings.sso.adminValues")}
            value={form.admins}
            onChange={(e) => set({ admins: e.target.value })}
          />
          <TextField
            label={t("settings.sso.userValues")}
            value={form.users}
            onChange={(e) => set({ users: e.target.value })}
          />
          <TextField
            label={t("settings.sso.guestValues")}
            value={form.guests}
            onChange={(e) => set({ guests: e.target.value })}
          />
          <SelectField
            label={t("settings.sso.defaultRole")}
            value={form.defaultRole}
            onChange={(e) => set({ defaultRole: e.target.value as Role })}
            controlClassName="sm:max-w-48"
          >
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {t(`settings.sso.roles.${role}`)}
              </option>
            ))}
          </SelectField>
          <TextField
            label={t("settings.sso.domains")}
            hint={t("settings.sso.domainsHint")}
            value={form.domains}
            onChange={(e) => set({ domains: e.target.value })}
          />
          <CheckboxField
            label={t("settings.sso.autoCreate")}
            description={t("settings.sso.autoCreateHint")}
            checked={form.autoCreate}
            onCheckedChange={(autoCreate) => set({ autoCreate })}
          />
        </>
      ) : null}
    </SettingsFormCard>
  );
}
