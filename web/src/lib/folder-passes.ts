/**
 * Passes to password-protected folders (POST /api/fs/unlock), kept for the
 * browser tab in sessionStorage and sent with every API request in
 * X-Folder-Token, so a folder's password is asked once. The server checks
 * each pass against the folder, its password and who asked; expired ones are
 * dropped here.
 */
const STORAGE_KEY = "clipshare.folderPasses";
export const FOLDER_TOKEN_HEADER = "X-Folder-Token";

interface StoredPass {
  path: string;
  token: string;
  expiresAt: number;
}

function read(): StoredPass[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "[]");
    if (!Array.isArray(parsed)) return [];
    return (parsed as StoredPass[]).filter((p) => typeof p.token === "string" && p.expiresAt > Date.now());
  } catch {
    return [];
  }
}

export function rememberFolderPass(pass: StoredPass): void {
  const kept = read().filter((p) => p.path !== pass.path);
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...kept, pass]));
}

/** The header with every live pass, or nothing. */
export function folderPassHeaders(): Record<string, string> {
  if (typeof sessionStorage === "undefined") return {};
  const tokens = read().map((p) => p.token);
  return tokens.length === 0 ? {} : { [FOLDER_TOKEN_HEADER]: tokens.join(",") };
}
