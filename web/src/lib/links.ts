/** Where ClipShare's source code lives (shown in the top bar). */
export const SOURCE_REPOSITORY_URL = "https://github.com/clipshare/clipshare";
