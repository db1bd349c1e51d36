export * from "./constants";
export * from "./permissions";
