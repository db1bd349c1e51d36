// Users and invitations, as the admin panel's "users" module.
export { UsersModule } from "./components/users-module";
