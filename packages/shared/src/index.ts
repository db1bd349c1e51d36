export * from "./constants";
export * from "./permissions";
export * from "./schemas/admin";
export * from "./schemas/api-keys";
export * from "./schemas/common";
export * from "./schemas/pastes";
export * from "./schemas/settings";
