/**
 * Response schemas: what the server sends in `data`, one description for the
 * server's presenters (typed against them), the web app (types only) and the
 * contract test (which parses real answers with them).
 */
export * from "./accounts";
export * from "./admin";
export * from "./auth";
export * from "./collections";
export * from "./file-requests";
export * from "./files";
export * from "./fs";
export * from "./notifications";
export * from "./passkeys";
export * from "./pastes";
export * from "./second-factors";
export * from "./sso";
export * from "./uploads";
