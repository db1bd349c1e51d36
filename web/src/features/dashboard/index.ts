// The dashboard feature as the admin panel loads it.
export { DashboardModule } from "./components/dashboard-module";
