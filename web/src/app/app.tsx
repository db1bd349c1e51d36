import { RouterProvider } from "../lib/router";
import { RouteFallback } from "./layout/route-fallback";
import type { createAppRouter } from "./router";

export function App({ router }: { router: ReturnType<typeof createAppRouter> }) {
  return <RouterProvider router={router} fallback={<RouteFallback />} />;
}
