// The storage config feature as the admin panel loads it.
export { StorageConfigModule } from "./components/storage-config-module";
