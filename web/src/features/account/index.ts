// One's own account: the admin panel's profile module, and the invitation page (/invite/:token).
export { ProfileModule } from "./components/profile-module";
