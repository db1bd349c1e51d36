import { QueryClient } from "@tanstack/react-query";
import { isApiError } from "./api-error";

/** Client errors (4xx) and cancellations are final; retry network trouble and 5xx once. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  if (!isApiError(error)) return false;
  if (error.kind === "abort" || error.kind === "parse" || error.kind === "invalid_response") return false;
  if (error.kind === "http" || error.kind === "envelope") return error.status >= 500;
  return true;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: shouldRetry,
      },
      mutations: { retry: false },
    },
  });
}

/** The app's one cache; lives in the lazily loaded data layout's chunk. */
export const queryClient = createQueryClient();
