// Users and invitations, as the admin panel's "users" module, and the owner filter of the share lists.
export { OwnerFilter } from "./components/owner-filter";
export { UsersModule } from "./components/users-module";
