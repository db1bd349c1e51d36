import {
  type AnchorHTMLAttributes,
  Component,
  type ComponentType,
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
} from "react";
import { isActivePath, isPlainClick } from "./links";
import type { Params, RouteMatch } from "./match";
import type { Location, NavigateOptions, Router, RouterState } from "./router";
import { scrollAfterNavigation } from "./scroll";

const RouterContext = createContext<Router>(null as unknown as Router);
const StateContext = createContext<RouterState>(null as unknown as RouterState);
/** The route level an `<Outlet>` at this place draws. */
const LevelContext = createContext(0);
const ErrorContext = createContext<unknown>(undefined);

/** Draws the current location's routes; `fallback` until the first page has loaded. */
export function RouterProvider({ router, fallback }: { router: Router; fallback?: ReactNode }) {
  const state = useSyncExternalStore(router.subscribe, router.getState, router.getState);
  const shown = useRef<Location | null>(null);
  useLayoutEffect(() => {
    if (!state.matches) return;
    const before = shown.current;
    shown.current = state.location;
    // Only a change of page moves the scroll position, not a changed query (filters, a preview).
    if (before?.pathname === state.location.pathname) return;
    scrollAfterNavigation(state.location.key, state.action === "pop", state.location.hash);
  }, [state]);
  if (state.failure?.level === -1) throw state.failure.error;
  return (
    <RouterContext.Provider value={router}>
      <StateContext.Provider value={state}>
        {state.matches ? <Level index={0} /> : fallback}
      </StateContext.Provider>
    </RouterContext.Provider>
  );
}

interface BoundaryProps {
  fallback: ComponentType;
  /** Set when the route failed before it could be drawn. */
  failure: { error: unknown } | null;
  /** The location: a new one clears an error caught while drawing. */
  at: string;
  children: ReactNode;
}

class RouteBoundary extends Component<BoundaryProps, { caught: { error: unknown } | null; at: string }> {
  override state = { caught: null, at: this.props.at };
  static getDerivedStateFromError(error: unknown) {
    return { caught: { error } };
  }
  static getDerivedStateFromProps(props: BoundaryProps, state: { at: string }) {
    return props.at === state.at ? null : { caught: null, at: props.at };
  }
  override render() {
    const failure = this.props.failure ?? this.state.caught;
    if (!failure) return this.props.children;
    const Fallback = this.props.fallback;
    return (
      <ErrorContext.Provider value={failure.error}>
        <Fallback />
      </ErrorContext.Provider>
    );
  }
}

function Level({ index }: { index: number }) {
  const router = useContext(RouterContext);
  const { matches, failure, location } = useContext(StateContext);
  const route = matches?.[index]?.route;
  if (!route) return null;
  const failed = failure?.level === index ? failure : null;
  const Page = router.componentOf(route);
  const content = failed ? null : Page ? <Page /> : <Level index={index + 1} />;
  return (
    <LevelContext.Provider value={index + 1}>
      {route.ErrorBoundary ? (
        <RouteBoundary fallback={route.ErrorBoundary} failure={failed} at={location.key}>
          {content}
        </RouteBoundary>
      ) : (
        content
      )}
    </LevelContext.Provider>
  );
}

/** Where a layout draws the route inside it. */
export function Outlet() {
  return <Level index={useContext(LevelContext)} />;
}

export const useLocation = (): Location => useContext(StateContext).location;
export const useMatches = (): RouteMatch[] => useContext(StateContext).matches ?? [];
/** Every `:name` and `*` of the current location, whichever level asks. */
export const useParams = (): Params => useMatches()[0]?.params ?? {};
export const useNavigate = (): Router["navigate"] => useContext(RouterContext).navigate;
export const useNavigation = () => ({ state: useContext(StateContext).navigating ? "loading" : "idle" });
/** The error an error boundary is showing. */
export const useRouteError = (): unknown => useContext(ErrorContext);

type SearchInit = URLSearchParams | ((current: URLSearchParams) => URLSearchParams);

/** The query of the current location, and a setter that navigates to the same page with another query. */
export function useSearchParams(): [URLSearchParams, (next: SearchInit, options?: NavigateOptions) => void] {
  const router = useContext(RouterContext);
  const { search } = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback(
    (next: SearchInit, options?: NavigateOptions) => {
      const { pathname, search: now } = router.getState().location;
      const query = String(typeof next === "function" ? next(new URLSearchParams(now)) : next);
      void router.navigate(query ? `${pathname}?${query}` : pathname, options);
    },
    [router],
  );
  return [params, setParams];
}

export function Navigate({ to, replace, state }: { to: string } & NavigateOptions) {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(to, { replace, state });
  }, [navigate, to, replace, state]);
  return null;
}

export interface LinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  to: string;
  replace?: boolean;
  state?: unknown;
  /** Load the page from the server instead of switching in place. */
  reloadDocument?: boolean;
}

/** An `<a href>` that switches page in place on a plain click; everything else is the browser's. */
export function Link({ to, replace, state, reloadDocument, onClick, ...rest }: LinkProps) {
  const router = useContext(RouterContext);
  return (
    <a
      {...rest}
      href={to}
      onClick={(event) => {
        onClick?.(event);
        if (reloadDocument || rest.download !== undefined || !isPlainClick(event, rest.target)) return;
        if (!router.owns(to)) return;
        event.preventDefault();
        void router.navigate(to, { replace, state });
      }}
    />
  );
}

export interface NavLinkProps extends Omit<LinkProps, "className"> {
  /** Active only on exactly this path, not on the pages below it. */
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string);
}

/** A link that knows it leads to the current page: `aria-current="page"` and the active class. */
export function NavLink({ end, className, ...rest }: NavLinkProps) {
  const isActive = isActivePath(useLocation().pathname, rest.to, end);
  return (
    <Link
      {...rest}
      aria-current={isActive ? "page" : undefined}
      className={typeof className === "function" ? className({ isActive }) : className}
    />
  );
}
