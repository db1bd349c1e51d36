import i18next from "i18next";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";

export function Providers({ children }: { children: ReactNode }) {
  return <I18nextProvider i18n={i18next}>{children}</I18nextProvider>;
}
