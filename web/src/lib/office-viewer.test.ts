import type { OfficeViewerUrls } from "@clipshare/shared";
import { describe, expect, it } from "vitest";
import en from "../i18n/locales/en.json";
import zh from "../i18n/locales/zh.json";
import { officeViewer } from "./office-viewer";

const urls = {
  url: "https://view.officeapps.live.com/op/view.aspx?src=x",
  microsoft: "https://view.officeapps.live.com/op/view.aspx?src=x",
  google: "https://docs.google.com/viewer?url=x",
} as OfficeViewerUrls;

describe("office viewer", () => {
  it("frames the chosen provider's https viewer", () => {
    expect(officeViewer(urls, "google")).toEqual({ src: urls.google });
    expect(officeViewer(urls, "microsoft")).toEqual({ src: urls.microsoft });
  });

  it("an unknown provider reads 'unsupported preview provider'", () => {
    expect(officeViewer(urls, "dropbox")).toEqual({ error: "fileView.office.unsupportedProvider" });
    expect(en.fileView.office.unsupportedProvider).toBe("Unsupported preview provider.");
    expect(zh.fileView.office.unsupportedProvider).toBe("不支持的预览服务。");
  });

  it("a viewer URL that is not https reads 'invalid input'", () => {
    const bad = { ...urls, google: "javascript:alert(1)", url: "data:text/html,x" } as OfficeViewerUrls;
    expect(officeViewer(bad, "google")).toEqual({ error: "fileView.office.invalidInput" });
    expect(en.fileView.office.invalidInput).toBe("Invalid input.");
    expect(zh.fileView.office.invalidInput).toBe("输入无效。");
  });
});
