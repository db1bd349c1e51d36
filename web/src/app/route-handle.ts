import type { Params } from "react-router";
import type { TranslationKey } from "../i18n";

/** What a route title may depend on besides its parameters. */
export interface TitleContext {
  /** Signed in with an API key (not the administrator, not signed out). */
  keyHolder: boolean;
}

/** Per-route data read by the layout: the localized page title. */
export interface RouteHandle {
  title?: TranslationKey | ((params: Params, context: TitleContext) => TranslationKey);
}
