import { createS3Storage } from "../support/fs-helpers";
import { describeS3 } from "../support/s3-env";
import { describeShareMultipartSuite } from "./files-multipart-suite";

describeS3("S3 (Swift)", (s3) => {
  describeShareMultipartSuite("S3", (t) => createS3Storage(t, s3, "share-multipart"));
});
