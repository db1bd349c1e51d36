// The upload feature as other features use it: how an upload failure reads.
export { describeUploadFailure } from "./upload-errors";
