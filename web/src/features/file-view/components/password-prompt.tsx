import { useState } from "react";
import { PasswordPrompt } from "../../../components/password-prompt";
import { useTranslation } from "../../../i18n";
import { useErrorText } from "../../../lib/use-error-text";
import { useUnlockFile } from "../hooks/use-public-file";

/** A protected file share: nothing of the file shows until the password is right. */
export function FilePasswordPrompt({
  slug,
  onGone,
}: {
  slug: string;
  /** Takes a 410 (expired or used up while typing) and switches the page to that state. */
  onGone: (error: unknown) => boolean;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const unlock = useUnlockFile(slug);
  const [error, setError] = useState<string | null>(null);

  async function submit(password: string) {
    setError(null);
    try {
      await unlock.mutateAsync(password);
    } catch (err) {
      if (!onGone(err)) setError(errorText(err));
    }
  }

  return (
    <PasswordPrompt
      title={t("fileView.password.title")}
      description={t("fileView.password.description")}
      texts={{
        label: t("fileView.password.label"),
        required: t("fileView.password.required"),
        submit: t("fileView.password.submit"),
        checking: t("fileView.password.checking"),
      }}
      busy={unlock.isPending}
      error={error}
      onSubmit={(password) => void submit(password)}
    />
  );
}
