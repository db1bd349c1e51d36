// The API key feature as the admin panel loads it, and the pieces other features show grants with.
export { KeyManagementModule } from "./components/key-management-module";
export { PermissionBadges } from "./components/permission-badges";
export { PermissionPicker } from "./components/permission-picker";
