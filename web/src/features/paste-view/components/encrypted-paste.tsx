import { E2EError } from "@clipshare/shared";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { PasswordPrompt } from "../../../components/password-prompt";
import { Alert } from "../../../components/ui/alert";
import { fragmentKey, openPasteText } from "../../../lib/e2e/paste-crypto";
import { PasteSkeleton } from "./paste-skeleton";

type Failure = "missingKey" | "damaged" | "wrongPassword";

/**
 * An end-to-end encrypted paste: the fetched ciphertext is opened here with the
 * key from the link's fragment (asking for the password when the key is
 * wrapped), and only the plaintext goes on to `children`.
 */
export function EncryptedPaste({
  content,
  children,
}: {
  content: string;
  children: (text: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const [link] = useState(() => fragmentKey(window.location.hash));
  const [text, setText] = useState<string | null>(null);
  const [failure, setFailure] = useState<Failure | null>(link.kind === "none" ? "missingKey" : null);
  const [busy, setBusy] = useState(false);

  async function open(password?: string) {
    setBusy(true);
    try {
      setText(await openPasteText(content, link, password));
      setFailure(null);
    } catch (e) {
      setFailure(e instanceof E2EError && e.code === "wrong_password" ? "wrongPassword" : "damaged");
    } finally {
      setBusy(false);
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: opened once per page; the link does not change under it
  useEffect(() => {
    if (link.kind === "key") void open();
  }, []);

  if (text !== null) return <>{children(text)}</>;
  if (failure === "missingKey" || failure === "damaged")
    return (
      <div className="mx-auto max-w-lg py-10" data-testid="e2e-failure">
        <Alert>{t(`e2e.${failure}`)}</Alert>
      </div>
    );
  if (link.kind === "password")
    return (
      <div className="py-4 sm:py-10">
        <PasswordPrompt
          title={t("e2e.password.title")}
          description={t("e2e.password.description")}
          texts={{
            label: t("pastes.form.password"),
            required: t("e2e.password.required"),
            submit: t("e2e.password.submit"),
            checking: t("e2e.password.checking"),
          }}
          onSubmit={(password) => void open(password)}
          busy={busy}
          error={failure === "wrongPassword" ? t("e2e.password.wrong") : null}
        />
      </div>
    );
  return <PasteSkeleton />;
}
