// The collections feature: the admin panel's module (the visitor's page /c/:slug is routed directly).
export { CollectionsModule } from "./components/collections-module";
