import { E2EError, type FragmentKey, readFragment } from "@clipshare/shared";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "../i18n";
import { PasswordPrompt } from "./password-prompt";
import { Alert } from "./ui/alert";

type Failure = "missingKey" | "damaged" | "wrongPassword";

/**
 * The key of an end-to-end encrypted share, from the page's link: opens the
 * share with `open` at once when the fragment holds the key, asks for the
 * password when it holds a wrapped key (checked in the browser, never sent),
 * and says so when the key is missing or does not open the share.
 */
export function E2EKeyGate<T>({
  open,
  passwordDescription,
  failureText,
  children,
}: {
  open: (link: FragmentKey, password?: string) => Promise<T>;
  passwordDescription: string;
  failureText: (failure: "missingKey" | "damaged") => string;
  children: (opened: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const [link] = useState(() => readFragment(window.location.hash));
  const [opened, setOpened] = useState<{ value: T } | null>(null);
  const [failure, setFailure] = useState<Failure | null>(link.kind === "none" ? "missingKey" : null);
  const [busy, setBusy] = useState(false);

  async function tryOpen(password?: string) {
    setBusy(true);
    try {
      setOpened({ value: await open(link, password) });
      setFailure(null);
    } catch (e) {
      setFailure(e instanceof E2EError && e.code === "wrong_password" ? "wrongPassword" : "damaged");
    } finally {
      setBusy(false);
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: opened once per page; the link does not change under it
  useEffect(() => {
    if (link.kind === "key") void tryOpen();
  }, []);

  if (opened) return <>{children(opened.value)}</>;
  if (failure === "missingKey" || failure === "damaged")
    return (
      <div className="mx-auto max-w-lg py-10" data-testid="e2e-failure">
        <Alert>{failureText(failure)}</Alert>
      </div>
    );
  if (link.kind === "password")
    return (
      <div className="py-4 sm:py-10">
        <PasswordPrompt
          title={t("e2e.password.title")}
          description={passwordDescription}
          texts={{
            label: t("pastes.form.password"),
            required: t("e2e.password.required"),
            submit: t("e2e.password.submit"),
            checking: t("e2e.password.checking"),
          }}
          onSubmit={(password) => void tryOpen(password)}
          busy={busy}
          error={failure === "wrongPassword" ? t("e2e.password.wrong") : null}
        />
      </div>
    );
  return (
    <p className="py-10 text-center text-sm text-slate-500 dark:text-slate-400">{t("e2e.decrypting")}</p>
  );
}
