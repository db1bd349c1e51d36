import { SignInRequired } from "../../../components/sign-in-required";
import { useTranslation } from "../../../i18n";
import type { Capabilities } from "../../../lib/auth-state";

/** Creating a paste needs the administrator or an API key with text permission. */
export function SignInPrompt({ caps }: { caps: Capabilities }) {
  const { t } = useTranslation();
  const keyWithoutText = caps.isScoped && !caps.text;
  return (
    <SignInRequired
      title={keyWithoutText ? t("home.signIn.keyTitle") : t("home.signIn.title")}
      description={keyWithoutText ? t("home.signIn.keyDescription") : t("home.signIn.description")}
      action={t("home.signIn.action")}
    />
  );
}
