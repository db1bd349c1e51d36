// The offline feature as other features use it: the "offline copy" mark,
// the app status card of the settings, and files shared into the app.
export { AppStatusCard } from "./components/app-status-card";
export { OfflineCopyMark } from "./components/offline-copy-mark";
export { useReceivedShare } from "./hooks/use-received-share";
