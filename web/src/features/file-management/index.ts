// The file management feature as the admin panel loads it.
export { FileManagementModule } from "./components/file-management-module";
