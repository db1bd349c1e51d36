import { ClipboardPaste, FolderOpen, UploadCloud } from "lucide-react";
import { type DragEvent, useEffect, useRef, useState } from "react";
import { Button } from "../../../components/ui/button";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { cn } from "../../../lib/cn";
import { formatBytes } from "../../../lib/file-size";
import { clipboardFileName } from "../upload-form-model";

export type AddFiles = (files: { file: File; name?: string }[]) => string[];

function filesOf(list: FileList | null | undefined): File[] {
  return list ? Array.from(list) : [];
}

/** Files pasted anywhere on the page (Ctrl/Cmd+V), unless the user is typing text into a field. */
function usePasteFiles(addFiles: AddFiles) {
  const { t } = useTranslation();
  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      const files = filesOf(event.clipboardData?.files);
      if (files.length === 0) return;
      event.preventDefault();
      const added = addFiles(
        files.map((file) => ({ file, name: clipboardFileName(file.name, file.type) })),
      ).length;
      if (added > 0) toast(t("upload.pastedFiles", { count: added }), "success");
    };
    window.addEventListener("paste", onPaste);
    return () => window.removeEventListener("paste", onPaste);
  }, [addFiles, t]);
}

/** Files dropped outside the zone would make the browser open them: keep them on the page. */
function useWindowDropGuard(addFiles: AddFiles) {
  useEffect(() => {
    const hasFiles = (event: globalThis.DragEvent) => event.dataTransfer?.types.includes("Files") ?? false;
    const onDragOver = (event: globalThis.DragEvent) => {
      if (hasFiles(event)) event.preventDefault();
    };
    const onDrop = (event: globalThis.DragEvent) => {
      if (!hasFiles(event) || event.defaultPrevented) return;
      event.preventDefault();
      addFiles(filesOf(event.dataTransfer?.files).map((file) => ({ file })));
    };
    window.addEventListener("dragover", onDragOver);
    window.addEventListener("drop", onDrop);
    return () => {
      window.removeEventListener("dragover", onDragOver);
      window.removeEventListener("drop", onDrop);
    };
  }, [addFiles]);
}

/** Drag and drop, file picker and clipboard paste; many files at once. */
export function DropZone({ addFiles, maxBytes }: { addFiles: AddFiles; maxBytes: number | null }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const depth = useRef(0);
  const [active, setActive] = useState(false);
  const canReadClipboard =
    typeof navigator !== "undefined" && typeof navigator.clipboard?.read === "function";

  usePasteFiles(addFiles);
  useWindowDropGuard(addFiles);

  const onDragEnter = (event: DragEvent) => {
    event.preventDefault();
    depth.current += 1;
    setActive(true);
  };
  const onDragLeave = (event: DragEvent) => {
    event.preventDefault();
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setActive(false);
  };
  const onDragOver = (event: DragEvent) => {
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = "copy";
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    depth.current = 0;
    setActive(false);
    const files = filesOf(event.dataTransfer?.files);
    if (files.length > 0) addFiles(files.map((file) => ({ file })));
  };

  async function pasteFromClipboard() {
    try {
      const items = await navigator.clipboard.read();
      const files: { file: File; name: string }[] = [];
      for (const item of items) {
        const type = item.types.find((ty) => !ty.startsWith("text/")) ?? null;
        if (!type) continue;
        const blob = await item.getType(type);
        const file = new File([blob], clipboardFileName("", type), { type });
        files.push({ file, name: file.name });
      }
      if (files.length === 0) {
        toast(t("upload.clipboardEmpty"), "info");
        return;
      }
      addFiles(files);
      toast(t("upload.pastedFiles", { count: files.length }), "success");
    } catch {
      toast(t("upload.clipboardDenied"), "error");
    }
  }

  return (
    <section
      aria-label={t("upload.dropZone")}
      onDragEnter={onDragEnter}
      onDragLeave={onDragLeave}
      onDragOver={onDragOver}
      onDrop={onDrop}
      className={cn(
        "flex flex-col items-center justify-center rounded-2xl border-2 border-dashed px-6 py-10 text-center transition-colors",
        active
          ? "border-indigo-500 bg-indigo-50/70 dark:border-indigo-400 dark:bg-indigo-950/40"
          : "border-slate-300 bg-white dark:border-slate-700 dark:bg-slate-900",
      )}
    >
      <UploadCloud
        className={cn("mb-3 h-10 w-10", active ? "text-indigo-600 dark:text-indigo-300" : "text-slate-400")}
        aria-hidden
      />
      <p className="font-medium text-slate-800 dark:text-slate-100">
        {active ? t("upload.dropNow") : t("upload.dropHint")}
      </p>
      <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t("upload.pasteHint")}</p>
      <div className="mt-4 flex flex-wrap justify-center gap-2">
        <Button onClick={() => input.current?.click()}>
          <FolderOpen className="h-4 w-4" aria-hidden />
          {t("upload.chooseFiles")}
        </Button>
        {canReadClipboard ? (
          <Button variant="outline" onClick={() => void pasteFromClipboard()}>
            <ClipboardPaste className="h-4 w-4" aria-hidden />
            {t("upload.pasteFromClipboard")}
          </Button>
        ) : null}
      </div>
      {maxBytes !== null ? (
        <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
          {t("upload.maxSize", { size: formatBytes(maxBytes) })}
        </p>
      ) : null}
      <input
        ref={input}
        type="file"
        multiple
        className="sr-only"
        tabIndex={-1}
        aria-label={t("upload.chooseFiles")}
        onChange={(event) => {
          const files = filesOf(event.target.files);
          if (files.length > 0) addFiles(files.map((file) => ({ file })));
          event.target.value = "";
        }}
      />
    </section>
  );
}
