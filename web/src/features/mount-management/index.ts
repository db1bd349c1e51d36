// The mount management feature as the admin panel loads it.
export { MountManagementModule } from "./components/mount-management-module";
