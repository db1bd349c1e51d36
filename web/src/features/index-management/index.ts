// The Indexes screen as the admin panel loads it.
export { IndexManagementModule } from "./components/index-management-module";
