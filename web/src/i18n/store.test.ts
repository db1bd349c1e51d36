import { describe, expect, it } from "vitest";
import adminEn from "./locales/admin/en.json";
import adminZh from "./locales/admin/zh.json";
import en from "./locales/en.json";
import zh from "./locales/zh.json";
import { createTextStore, type TextPart } from "./store";

type Lang = "en" | "zh";
const TAGS: Record<Lang, string> = { en: "en", zh: "zh-CN" };
const ADMIN_KEY = "settingsPage.description";

/** The real locale files, loaded the way the app loads them. */
const shellPart = (): TextPart<Lang> => ({
  en: () => import("./locales/en.json"),
  zh: () => import("./locales/zh.json"),
});
const adminPart = (): TextPart<Lang> => ({
  en: () => import("./locales/admin/en.json"),
  zh: () => import("./locales/admin/zh.json"),
});

/** A loader that waits until the test opens it, to order overlapping loads. */
function held<T>(load: () => Promise<T>) {
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { load: () => gate.then(load), open };
}

/** A loader that fails `times` times (the network is down), then loads. */
function failing<T>(load: () => Promise<T>, times = 1) {
  let left = times;
  return () => (left-- > 0 ? Promise.reject(new TypeError("Failed to fetch")) : load());
}

async function started(part: TextPart<Lang> = shellPart(), lang: Lang = "en") {
  const applied: Lang[] = [];
  const store = createTextStore<Lang>(TAGS, part, lang, (l) => applied.push(l));
  await store.setLanguage(lang);
  return { store, applied };
}

describe("text store", () => {
  it("switches language once its texts are in, and tells every subscriber", async () => {
    const { store, applied } = await started();
    const before = store.snapshot();
    expect(before.t("offline.title")).toBe(en.offline.title);
    let calls = 0;
    store.subscribe(() => calls++);

    await store.setLanguage("zh");

    const after = store.snapshot();
    expect(after).not.toBe(before);
    expect(after.i18n.language).toBe("zh");
    expect(after.t("offline.title")).toBe(zh.offline.title);
    expect(after.t("offlineApp.queue.waiting", { count: 1 })).toBe("1 项更改等待发送");
    expect(store.language()).toBe("zh");
    expect(calls).toBe(1);
    expect(applied).toEqual(["en", "zh"]);
  });

  it("keeps showing the current language while the next one loads", async () => {
    const zhShell = held(() => import("./locales/zh.json"));
    const { store } = await started({ ...shellPart(), zh: zhShell.load });
    const switching = store.setLanguage("zh");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(store.snapshot().t("offline.title")).toBe(en.offline.title);
    expect(store.language()).toBe("en");
    zhShell.open();
    await switching;
    expect(store.snapshot().t("offline.title")).toBe(zh.offline.title);
  });

  it("applies the language asked for last when changes overlap", async () => {
    const zhShell = held(() => import("./locales/zh.json"));
    const { store, applied } = await started({ ...shellPart(), zh: zhShell.load });
    const toChinese = store.setLanguage("zh");
    await store.setLanguage("en");
    zhShell.open();
    await toChinese;
    expect(store.language()).toBe("en");
    expect(store.snapshot().t("offline.title")).toBe(en.offline.title);
    expect(applied).toEqual(["en", "en"]);
  });

  it("stops telling a subscriber that left", async () => {
    const { store } = await started();
    let calls = 0;
    const leave = store.subscribe(() => calls++);
    leave();
    await store.setLanguage("zh");
    expect(calls).toBe(0);
  });

  it("loads an added part in the language in use, and again with every language change", async () => {
    const { store } = await started();
    expect(store.snapshot().t(ADMIN_KEY)).toBe(ADMIN_KEY);
    let calls = 0;
    store.subscribe(() => calls++);

    await store.addPart(adminPart());
    expect(store.snapshot().t(ADMIN_KEY)).toBe(adminEn.settingsPage.description);
    expect(calls).toBe(1);

    await store.setLanguage("zh");
    expect(store.snapshot().t(ADMIN_KEY)).toBe(adminZh.settingsPage.description);
    expect(store.snapshot().t("offline.title")).toBe(zh.offline.title);
  });

  it("loads a part added during a language change in the new language before that applies", async () => {
    const zhShell = held(() => import("./locales/zh.json"));
    const { store } = await started({ ...shellPart(), zh: zhShell.load });
    const switching = store.setLanguage("zh");
    const adding = store.addPart(adminPart());
    await adding;
    // Added for the language in use; the change to Chinese still waits for its texts.
    expect(store.snapshot().t(ADMIN_KEY)).toBe(adminEn.settingsPage.description);
    zhShell.open();
    await switching;
    expect(store.snapshot().i18n.language).toBe("zh");
    expect(store.snapshot().t(ADMIN_KEY)).toBe(adminZh.settingsPage.description);
  });

  it("loads a part for a change that starts while the part loads", async () => {
    const adminEnFile = held(() => import("./locales/admin/en.json"));
    const { store } = await started();
    const adding = store.addPart({ ...adminPart(), en: adminEnFile.load });
    const switching = store.setLanguage("zh");
    await switching;
    adminEnFile.open();
    await adding;
    expect(store.snapshot().i18n.language).toBe("zh");
    expect(store.snapshot().t(ADMIN_KEY)).toBe(adminZh.settingsPage.description);
  });

  it("stays in its language when the other one cannot be loaded, and loads it on the next try", async () => {
    const { store } = await started({ ...shellPart(), zh: failing(() => import("./locales/zh.json")) });
    await expect(store.setLanguage("zh")).rejects.toThrow("Failed to fetch");
    expect(store.language()).toBe("en");
    expect(store.snapshot().t("offline.title")).toBe(en.offline.title);

    await store.setLanguage("zh");
    expect(store.snapshot().t("offline.title")).toBe(zh.offline.title);
  });

  it("does not add a part that failed to load, so it cannot block language changes", async () => {
    const { store } = await started();
    const offlineAdmin: TextPart<Lang> = {
      en: failing(() => import("./locales/admin/en.json"), Number.POSITIVE_INFINITY),
      zh: failing(() => import("./locales/admin/zh.json"), Number.POSITIVE_INFINITY),
    };
    await expect(store.addPart(offlineAdmin)).rejects.toThrow("Failed to fetch");
    await store.setLanguage("zh");
    expect(store.snapshot().t("offline.title")).toBe(zh.offline.title);
  });
});
