/** What other features use of the admin area. */
export { SignInRequired } from "./components/sign-in-required";
