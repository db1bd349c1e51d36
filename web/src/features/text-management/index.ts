// The text management feature as the admin panel loads it.
export { TextManagementModule } from "./components/text-management-module";
