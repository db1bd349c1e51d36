import { RouterProvider } from "../lib/router";
import { RouteFallback } from "./layout/route-fallback";
import { Providers } from "./providers";
import type { createAppRouter } from "./router";

export function App({ router }: { router: ReturnType<typeof createAppRouter> }) {
  return (
    <Providers>
      <RouterProvider router={router} fallback={<RouteFallback />} />
    </Providers>
  );
}
