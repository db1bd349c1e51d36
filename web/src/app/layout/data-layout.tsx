import { QueryClientProvider } from "@tanstack/react-query";
import { queryClient } from "../../lib/query-client";
import { Outlet } from "../../lib/router";

/**
 * Server-state cache for every page. A lazily loaded layout route, so TanStack
 * Query is fetched alongside the first page instead of inside the entry bundle.
 */
export function DataLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
