import { createS3Storage } from "../support/fs-helpers";
import { describeS3 } from "../support/s3-env";
import { describeFileRequestSuite } from "./file-requests-suite";

describeS3("S3 (Swift)", (s3) => {
  describeFileRequestSuite("S3", (t) => createS3Storage(t, s3, "file-requests"));
});
