export * from "./format";
export * from "./keys";
export * from "./stream";
