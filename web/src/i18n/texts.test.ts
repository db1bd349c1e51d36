import i18next from "i18next";
import { describe, expect, it } from "vitest";
import adminEn from "./locales/admin/en.json";
import adminZh from "./locales/admin/zh.json";
import en from "./locales/en.json";
import zh from "./locales/zh.json";
import { createTexts, type TextPart } from "./texts";

type Lang = "en" | "zh";
const LANGS: Lang[] = ["en", "zh"];
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

/** A fresh i18next instance with the texts started in `lang`; `applied` lists every language switched to. */
async function started(part: TextPart<Lang> = shellPart(), lang: Lang = "en") {
  const i18n = i18next.createInstance();
  const applied: string[] = [];
  i18n.on("languageChanged", (l) => applied.push(l));
  const store = createTexts<Lang>(i18n, LANGS, part);
  await store.start(lang);
  const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options);
  return { store, applied, t, i18n };
}

describe("texts on i18next", () => {
  it("switches language once its texts are in", async () => {
    const { store, applied, t } = await started();
    expect(t("offline.title")).toBe(en.offline.title);

    await store.setLanguage("zh");

    expect(store.language()).toBe("zh");
    expect(t("offline.title")).toBe(zh.offline.title);
    expect(applied).toEqual(["en", "zh"]);
  });

  it("fills placeholders and picks the plural form of each language", async () => {
    const { store, t } = await started();
    expect(t("offlineApp.queue.waiting", { count: 1 })).toBe("1 change waiting to be sent");
    expect(t("offlineApp.queue.waiting", { count: 3 })).toBe("3 changes waiting to be sent");
    expect(t("footer.version", { version: "0.7.3" })).toBe("Version 0.7.3");
    // Values are text: React escapes them when it renders, i18next must not do it twice.
    expect(t("footer.version", { version: "<b>&" })).toBe("Version <b>&");
    expect(t("no.such.key", { defaultValue: "Fallback {{n}}", n: 2 })).toBe("Fallback 2");
    await store.setLanguage("zh");
    expect(t("offlineApp.queue.waiting", { count: 1 })).toBe("1 项更改等待发送");
    expect(t("offlineApp.queue.waiting", { count: 5 })).toBe("5 项更改等待发送");
  });

  it("keeps showing the current language while the next one loads", async () => {
    const zhShell = held(() => import("./locales/zh.json"));
    const { store, t } = await started({ ...shellPart(), zh: zhShell.load });
    const switching = store.setLanguage("zh");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(t("offline.title")).toBe(en.offline.title);
    expect(store.language()).toBe("en");
    zhShell.open();
    await switching;
    expect(t("offline.title")).toBe(zh.offline.title);
  });

  it("applies the language asked for last when changes overlap", async () => {
    const zhShell = held(() => import("./locales/zh.json"));
    const { store, applied, t } = await started({ ...shellPart(), zh: zhShell.load });
    const toChinese = store.setLanguage("zh");
    await store.setLanguage("en");
    zhShell.open();
    await toChinese;
    expect(store.language()).toBe("en");
    expect(t("offline.title")).toBe(en.offline.title);
    expect(applied.every((l) => l === "en")).toBe(true);
  });

  it("tells the components when a part is added (react-i18next listens to `added`)", async () => {
    const { store, i18n } = await started();
    let added = 0;
    i18n.store.on("added", () => added++);
    await store.addPart(adminPart());
    expect(added).toBeGreaterThan(0);
  });

  it("loads an added part in the language in use, and again with every language change", async () => {
    const { store, t } = await started();
    expect(t(ADMIN_KEY)).toBe(ADMIN_KEY);

    await store.addPart(adminPart());
    expect(t(ADMIN_KEY)).toBe(adminEn.settingsPage.description);

    await store.setLanguage("zh");
    expect(t(ADMIN_KEY)).toBe(adminZh.settingsPage.description);
    expect(t("offline.title")).toBe(zh.offline.title);
  });

  it("loads a part added during a language change in the new language before that applies", async () => {
    const zhShell = held(() => import("./locales/zh.json"));
    const { store, t } = await started({ ...shellPart(), zh: zhShell.load });
    const switching = store.setLanguage("zh");
    const adding = store.addPart(adminPart());
    await adding;
    // Added for the language in use; the change to Chinese still waits for its texts.
    expect(t(ADMIN_KEY)).toBe(adminEn.settingsPage.description);
    zhShell.open();
    await switching;
    expect(store.language()).toBe("zh");
    expect(t(ADMIN_KEY)).toBe(adminZh.settingsPage.description);
  });

  it("loads a part for a change that starts while the part loads", async () => {
    const adminEnFile = held(() => import("./locales/admin/en.json"));
    const { store, t } = await started();
    const adding = store.addPart({ ...adminPart(), en: adminEnFile.load });
    const switching = store.setLanguage("zh");
    await switching;
    adminEnFile.open();
    await adding;
    expect(store.language()).toBe("zh");
    expect(t(ADMIN_KEY)).toBe(adminZh.settingsPage.description);
  });

  it("stays in its language when the other one cannot be loaded, and loads it on the next try", async () => {
    const { store, t } = await started({ ...shellPart(), zh: failing(() => import("./locales/zh.json")) });
    await expect(store.setLanguage("zh")).rejects.toThrow("Failed to fetch");
    expect(store.language()).toBe("en");
    expect(t("offline.title")).toBe(en.offline.title);

    await store.setLanguage("zh");
    expect(t("offline.title")).toBe(zh.offline.title);
  });

  it("does not add a part that failed to load, so it cannot block language changes", async () => {
    const { store, t } = await started();
    const offlineAdmin: TextPart<Lang> = {
      en: failing(() => import("./locales/admin/en.json"), Number.POSITIVE_INFINITY),
      zh: failing(() => import("./locales/admin/zh.json"), Number.POSITIVE_INFINITY),
    };
    await expect(store.addPart(offlineAdmin)).rejects.toThrow("Failed to fetch");
    await store.setLanguage("zh");
    expect(t("offline.title")).toBe(zh.offline.title);
  });
});
