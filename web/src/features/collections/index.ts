// The collections feature: the visitor's page (/c/:slug), the admin panel's module, and the
// dialog other features open to share several files or folders under one link.
export { CollectionsModule } from "./components/collections-module";
export { ShareCollectionDialog } from "./components/share-collection-dialog";
