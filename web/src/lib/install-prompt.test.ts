import { INSTALL_PROMPT_RESHOW_MS } from "@clipshare/shared";
import { describe, expect, it } from "vitest";
import { installOfferAllowed } from "./install-prompt";
import { workerStateOf } from "./pwa";

describe("install offer", () => {
  it("shows when never dismissed, and again only more than seven days after a dismissal", () => {
    const now = Date.parse("2026-06-01T00:00:00Z");
    expect(installOfferAllowed(null, now)).toBe(true);
    expect(installOfferAllowed(now - 60_000, now)).toBe(false);
    expect(installOfferAllowed(now - INSTALL_PROMPT_RESHOW_MS, now)).toBe(false);
    expect(installOfferAllowed(now - INSTALL_PROMPT_RESHOW_MS - 1, now)).toBe(true);
  });
});

describe("service worker state", () => {
  const w = (state: string) => ({ state });
  it("reports the newest worker's state", () => {
    expect(workerStateOf({ installing: null, waiting: null, active: null })).toBe("unknown");
    expect(workerStateOf({ installing: w("installing"), waiting: null, active: w("activated") })).toBe(
      "installing",
    );
    expect(workerStateOf({ installing: null, waiting: w("installed"), active: w("activated") })).toBe(
      "waiting",
    );
    expect(workerStateOf({ installing: null, waiting: null, active: w("activating") })).toBe("active");
    expect(workerStateOf({ installing: null, waiting: null, active: w("redundant") })).toBe("redundant");
  });
});
