// The API key feature as the admin panel loads it.
export { KeyManagementModule } from "./components/key-management-module";
