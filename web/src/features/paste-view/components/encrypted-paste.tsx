import type { ReactNode } from "react";
import { E2EKeyGate } from "../../../components/e2e-key-gate";
import { useTranslation } from "../../../i18n";
import { openPasteText } from "../../../lib/e2e/paste-crypto";

/** An end-to-end encrypted paste: the fetched ciphertext is opened here, only the plaintext goes on to `children`. */
export function EncryptedPaste({
  content,
  children,
}: {
  content: string;
  children: (text: string) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <E2EKeyGate
      open={(link, password) => openPasteText(content, link, password)}
      passwordDescription={t("e2e.password.description")}
      failureText={(failure) => t(`e2e.${failure}`)}
    >
      {children}
    </E2EKeyGate>
  );
}
