import { RouterProvider } from "react-router";
import { Providers } from "./providers";
import type { createAppRouter } from "./router";

export function App({ router }: { router: ReturnType<typeof createAppRouter> }) {
  return (
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  );
}
