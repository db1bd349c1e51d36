// ClipShare's router: the app's routes, guards, lazily loaded pages, links and history.
export {
  Link,
  type LinkProps,
  Navigate,
  NavLink,
  Outlet,
  RouterProvider,
  useLocation,
  useMatches,
  useNavigate,
  useNavigation,
  useParams,
  useRouteError,
  useSearchParams,
} from "./components";
export type { Guard, GuardArgs, Params, RouteMatch, RouteObject } from "./match";
export { createRouter, type Location, type NavigateOptions, type Router } from "./router";
