// The upload feature as other features use it: how an upload failure reads.
export { describeDuplicates, describeUploadFailure } from "./upload-errors";
