import "./index.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { createAppRouter } from "./app/router";
import { initI18n } from "./i18n";
import { installAppNotices } from "./lib/app-notices";
import { authStore } from "./lib/auth-store";
import { installPrompt } from "./lib/install-prompt";
import { startOfflineLayerIfStored } from "./lib/offline/offline-layer";
import { registerServiceWorker } from "./lib/pwa";
import { themeStore } from "./lib/theme";

// Theme first, so the first paint already has the right colours.
themeStore.init();
installAppNotices();
installPrompt.init();
authStore.init();
// A restored session is checked with the server right away.
void authStore.ensureValidated();
// Creating the router starts loading the first page's code while the texts load.
const router = createAppRouter();

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");

void initI18n().then(() => {
  createRoot(root).render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  );
});

window.addEventListener("load", () => {
  void registerServiceWorker().catch(() => {
    // No service worker (unsupported or blocked): the app works online without it.
  });
  // Local database, expiry sweep and the queue's status; then send what waits.
  void startOfflineLayerIfStored();
});
