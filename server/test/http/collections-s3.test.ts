import { createS3Storage } from "../support/fs-helpers";
import { describeS3 } from "../support/s3-env";
import { describeCollectionSuite } from "./collections-suite";

describeS3("S3 (Swift)", (s3) => {
  describeCollectionSuite("S3", (t) => createS3Storage(t, s3, "collections"));
});
