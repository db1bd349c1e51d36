// The file-request feature: the visitor's page (/r/:slug) and the admin panel's module.
export { FileRequestsModule } from "./components/requests-module";
