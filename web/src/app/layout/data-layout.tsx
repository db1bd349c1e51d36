import { QueryClientProvider } from "@tanstack/react-query";
import { Outlet } from "react-router";
import { queryClient } from "../../lib/query-client";

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
