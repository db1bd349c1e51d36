import { createLocalStorage } from "../support/fs-helpers";
import { describeThumbnailSuite } from "./thumbnails-suite";

describeThumbnailSuite("LOCAL", (t) => createLocalStorage(t, "thumbs-disk"));
