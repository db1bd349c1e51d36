import type { ComponentType } from "react";
import { createBrowserRouter, type LoaderFunctionArgs, replace } from "react-router";
import { ADMIN_MODULE_TITLES, isAdminModuleId } from "../features/admin/modules/module-ids";
import type { TranslationKey } from "../i18n";
import { AppLayout } from "./layout/app-layout";
import { RouteError } from "./layout/route-error";
import { RouteFallback } from "./layout/route-fallback";
import { explorerGuard, type Guard, panelGuard } from "./route-guards";
import type { RouteHandle, TitleContext } from "./route-handle";

export type { RouteHandle, TitleContext } from "./route-handle";

const handle = (title: RouteHandle["title"]): RouteHandle => ({ title });

/** The panel is the administrator's "Admin panel" and a key holder's "User panel", in the tab as on the page. */
const panelTitle = ({ keyHolder }: TitleContext): TranslationKey =>
  keyHolder ? "admin.userPanel" : "admin.adminPanel";

/**
 * A guard as the route's loader: its answer, when there is one, redirects in place of the
 * entry asked for (never recorded, so Back does not return to it). It runs on
 * every navigation to or inside the route (not only when the route's own params change),
 * so a guard on `admin` also covers moving between its modules.
 */
export const guarded = (guard: Guard) => ({
  loader: async ({ params, request }: LoaderFunctionArgs) => {
    const elsewhere = await guard({ params, url: new URL(request.url) });
    return elsewhere ? replace(elsewhere) : null;
  },
  shouldRevalidate: () => true,
});

/** A lazily loaded page: `pick` takes its component from the module. */
const lazyPage =
  <M,>(load: () => Promise<M>, pick: (module: M) => ComponentType) =>
  () =>
    load().then((module) => ({ Component: pick(module) }));

/**
 * A page of the signed-in areas (and the API docs): its chunk and the admin texts load
 * together, so it never renders raw keys, and visitors' pages never fetch those texts.
 */
const withAdminTexts = <T,>(page: Promise<T>): Promise<T> =>
  Promise.all([page, import("../i18n/admin-texts").then((texts) => texts.loadAdminTexts())]).then(
    ([loaded]) => loaded,
  );

/** The app's route table (the build reads this module to split the pages' files, see scripts/app-shell.mjs). */
export const appRoutes = [
  {
    Component: AppLayout,
    HydrateFallback: RouteFallback,
    children: [
      {
        ErrorBoundary: RouteError,
        lazy: lazyPage(
          () => import("./layout/data-layout"),
          (m) => m.DataLayout,
        ),
        children: [
          {
            index: true,
            handle: handle("pages.home"),
            lazy: lazyPage(
              () => import("../features/home/components/home-page"),
              (m) => m.HomePage,
            ),
          },
          {
            path: "upload",
            handle: handle("pages.upload"),
            ...guarded(panelGuard),
            lazy: lazyPage(
              () => withAdminTexts(import("../features/upload/components/upload-page")),
              (m) => m.UploadPage,
            ),
          },
          {
            path: "admin",
            handle: handle((_params, context) => panelTitle(context)),
            ...guarded(panelGuard),
            lazy: lazyPage(
              () => withAdminTexts(import("../features/admin/components/admin-page")),
              (m) => m.AdminPage,
            ),
            children: [
              {
                index: true,
                lazy: lazyPage(
                  () => withAdminTexts(import("../features/admin/components/admin-module-route")),
                  (m) => m.AdminModuleRoute,
                ),
              },
              {
                path: ":module",
                handle: handle((params, context) =>
                  isAdminModuleId(params.module) ? ADMIN_MODULE_TITLES[params.module] : panelTitle(context),
                ),
                lazy: lazyPage(
                  () => withAdminTexts(import("../features/admin/components/admin-module-route")),
                  (m) => m.AdminModuleRoute,
                ),
              },
            ],
          },
          {
            path: "paste/:slug",
            handle: handle("pages.paste"),
            lazy: lazyPage(
              () => import("../features/paste-view/components/paste-page"),
              (m) => m.PastePage,
            ),
          },
          {
            path: "file/:slug",
            handle: handle("pages.file"),
            lazy: lazyPage(
              () => import("../features/file-view/components/file-page"),
              (m) => m.FilePage,
            ),
          },
          {
            path: "r/:slug",
            handle: handle("pages.fileRequest"),
            lazy: lazyPage(
              () => import("../features/file-requests/components/request-page"),
              (m) => m.RequestPage,
            ),
          },
          {
            path: "invite/:token",
            handle: handle("pages.invite"),
            lazy: lazyPage(
              () => withAdminTexts(import("../features/account/components/invite-page")),
              (m) => m.InvitePage,
            ),
          },
          {
            path: "sso",
            handle: handle("pages.sso"),
            lazy: lazyPage(
              () => withAdminTexts(import("../features/account/components/sso-page")),
              (m) => m.SsoPage,
            ),
          },
          {
            path: "c/:slug",
            handle: handle("pages.collection"),
            lazy: lazyPage(
              () => import("../features/collections/components/collection-page"),
              (m) => m.CollectionPage,
            ),
          },
          {
            path: "mount-explorer/*",
            handle: handle("pages.mountExplorer"),
            ...guarded(explorerGuard),
            lazy: lazyPage(
              () => withAdminTexts(import("../features/mount-explorer/components/explorer-page")),
              (m) => m.ExplorerPage,
            ),
          },
          {
            path: "api-docs",
            handle: handle("apiDocs.title"),
            lazy: lazyPage(
              () => withAdminTexts(import("../features/api-docs/components/api-docs-page")),
              (m) => m.ApiDocsPage,
            ),
          },
          // Any other address: Home, in place of the entry asked for.
          { path: "*", loader: () => replace("/") },
        ],
      },
    ],
  },
];

/**
 * The app's navigation (react-router's data router): guards and a page's code are
 * resolved before the page is shown, so the current one stays up, with a progress
 * indicator, until the next can be drawn whole.
 */
export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
