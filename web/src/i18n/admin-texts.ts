import { addTexts, type Language } from ".";
import type { TextPart } from "./texts";

/*
 * Texts of the signed-in areas: the admin panel and its modules, uploads, the file
 * explorer, the API docs, and the ways into an account (an invitation, the single
 * sign-on landing page). Visitors never fetch them: the router loads this module
 * with those pages and renders them once the texts are in.
 */
const adminTexts: TextPart<Language> = {
  en: () => import("./locales/admin/en.json"),
  zh: () => import("./locales/admin/zh.json"),
};

export const loadAdminTexts = (): Promise<void> => addTexts(adminTexts);
