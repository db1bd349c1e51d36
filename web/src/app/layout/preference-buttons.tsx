import { Languages, Monitor, Moon, Sun } from "lucide-react";
import { Button } from "../../components/ui/button";
import { currentLanguage, setLanguage, useTranslation } from "../../i18n";
import { themeStore, useTheme } from "../../lib/theme";

/** Cycles auto → light → dark; the accessible name says the current mode. */
export function ThemeButton({ withLabel = false }: { withLabel?: boolean }) {
  const { t } = useTranslation();
  const { mode } = useTheme();
  const Icon = mode === "auto" ? Monitor : mode === "light" ? Sun : Moon;
  const modeName = t(`theme.${mode}`);
  const label = t("theme.switch", { mode: modeName });
  return (
    <Button
      variant="ghost"
      size={withLabel ? "md" : "icon"}
      onClick={() => themeStore.cycle()}
      aria-label={label}
      title={label}
      data-theme-mode={mode}
      className={withLabel ? "w-full justify-start" : undefined}
    >
      <Icon className="h-4.5 w-4.5" aria-hidden />
      {withLabel ? <span aria-hidden>{t("theme.current", { mode: modeName })}</span> : null}
    </Button>
  );
}

/** Switches between Chinese and English. */
export function LanguageButton({ withLabel = false }: { withLabel?: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage();
  const next = lang === "zh" ? "en" : "zh";
  const label = t("language.switch", { language: t(`language.${next}`) });
  return (
    <Button
      variant="ghost"
      size={withLabel ? "md" : "sm"}
      onClick={() => void setLanguage(next)}
      aria-label={label}
      title={label}
      lang={i18n.language}
      className={withLabel ? "w-full justify-start" : "px-2"}
    >
      <Languages className="h-4.5 w-4.5" aria-hidden />
      <span aria-hidden className="text-xs font-semibold">
        {t(`language.${next}`)}
      </span>
    </Button>
  );
}
