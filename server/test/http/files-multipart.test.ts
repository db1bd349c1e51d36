import { createLocalStorage } from "../support/fs-helpers";
import { describeShareMultipartSuite } from "./files-multipart-suite";

describeShareMultipartSuite("LOCAL", (t) => createLocalStorage(t, "disk-parts"));
