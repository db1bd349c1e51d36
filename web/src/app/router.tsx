import { createBrowserRouter, type Params, redirect } from "react-router";
import { ADMIN_MODULE_TITLES, isAdminModuleId } from "../features/admin/modules/module-ids";
import type { TranslationKey } from "../i18n";
import { AppLayout } from "./layout/app-layout";
import { RouteError } from "./layout/route-error";
import { RouteFallback } from "./layout/route-fallback";
import { explorerGuard, panelGuard } from "./route-guards";

/** What a route title may depend on besides its parameters. */
export interface TitleContext {
  /** Signed in with an API key (not the administrator, not signed out). */
  keyHolder: boolean;
}

/** Per-route data read by the layout: the localized page title. */
export interface RouteHandle {
  title?: TranslationKey | ((params: Params, context: TitleContext) => TranslationKey);
}

const handle = (title: RouteHandle["title"]): RouteHandle => ({ title });

/** The panel is the administrator's "Admin panel" and a key holder's "User panel", in the tab as on the page. */
const panelTitle = ({ keyHolder }: TitleContext): TranslationKey =>
  keyHolder ? "admin.userPanel" : "admin.adminPanel";

/**
 * A page of the signed-in areas (and the API docs): its chunk and the admin texts load
 * together, so it never renders raw keys, and visitors' pages never fetch those texts.
 */
const withAdminTexts = <T,>(page: Promise<T>): Promise<T> =>
  Promise.all([page, import("../i18n/admin-texts").then((texts) => texts.loadAdminTexts())]).then(
    ([loaded]) => loaded,
  );

/** The app's routes. Every page is its own lazily loaded chunk. */
export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <AppLayout />,
      HydrateFallback: RouteFallback,
      children: [
        {
          errorElement: <RouteError />,
          lazy: () => import("./layout/data-layout").then((m) => ({ Component: m.DataLayout })),
          children: [
            {
              index: true,
              handle: handle("pages.home"),
              lazy: () =>
                import("../features/home/components/home-page").then((m) => ({ Component: m.HomePage })),
            },
            {
              path: "upload",
              handle: handle("pages.upload"),
              loader: panelGuard,
              lazy: () =>
                withAdminTexts(import("../features/upload/components/upload-page")).then((m) => ({
                  Component: m.UploadPage,
                })),
            },
            {
              path: "admin",
              handle: handle((_params, context) => panelTitle(context)),
              loader: panelGuard,
              lazy: () =>
                withAdminTexts(import("../features/admin/components/admin-page")).then((m) => ({
                  Component: m.AdminPage,
                })),
              children: [
                {
                  index: true,
                  lazy: () =>
                    withAdminTexts(import("../features/admin/components/admin-module-route")).then((m) => ({
                      Component: m.AdminModuleRoute,
                    })),
                },
                {
                  path: ":module",
                  loader: panelGuard,
                  handle: handle((params, context) =>
                    isAdminModuleId(params.module) ? ADMIN_MODULE_TITLES[params.module] : panelTitle(context),
                  ),
                  lazy: () =>
                    withAdminTexts(import("../features/admin/components/admin-module-route")).then((m) => ({
                      Component: m.AdminModuleRoute,
                    })),
                },
              ],
            },
            {
              path: "paste/:slug",
              handle: handle("pages.paste"),
              lazy: () =>
                import("../features/paste-view/components/paste-page").then((m) => ({
                  Component: m.PastePage,
                })),
            },
            {
              path: "file/:slug",
              handle: handle("pages.file"),
              lazy: () =>
                import("../features/file-view/components/file-page").then((m) => ({ Component: m.FilePage })),
            },
            {
              path: "mount-explorer/*",
              handle: handle("pages.mountExplorer"),
              loader: explorerGuard,
              lazy: () =>
                withAdminTexts(import("../features/mount-explorer/components/explorer-page")).then((m) => ({
                  Component: m.ExplorerPage,
                })),
            },
            {
              path: "api-docs",
              handle: handle("apiDocs.title"),
              lazy: () =>
                withAdminTexts(import("../features/api-docs/components/api-docs-page")).then((m) => ({
                  Component: m.ApiDocsPage,
                })),
            },
            { path: "*", loader: () => redirect("/") },
          ],
        },
      ],
    },
  ]);
}
