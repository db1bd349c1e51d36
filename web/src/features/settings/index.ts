// The settings feature as the admin panel loads it.
export { SettingsModule } from "./components/settings-module";
