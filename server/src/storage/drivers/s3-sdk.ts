import { lazyRequire } from "../../lib/lazy-require";

type ClientS3 = typeof import("@aws-sdk/client-s3");
type LibStorage = typeof import("@aws-sdk/lib-storage");
type Presigner = typeof import("@aws-sdk/s3-request-presigner");

/** The parts of the AWS SDK the S3 driver uses. */
export type S3Sdk = ClientS3 & Pick<LibStorage, "Upload"> & Pick<Presigner, "getSignedUrl">;

const clientS3 = lazyRequire<ClientS3>("@aws-sdk/client-s3");
const libStorage = lazyRequire<LibStorage>("@aws-sdk/lib-storage");
const presigner = lazyRequire<Presigner>("@aws-sdk/s3-request-presigner");

/**
 * The AWS SDK, loaded on first use: it is the largest dependency by far (about
 * 10 MB resident and a slower start), and a server that stores only on its own
 * disk never needs it. S3 driver code reaches the SDK only through `sdk.*` and
 * imports just its types, so only a configured S3 storage loads it.
 */
export const sdk: S3Sdk = new Proxy({} as S3Sdk, {
  get(_target, name) {
    if (name === "Upload") return libStorage().Upload;
    if (name === "getSignedUrl") return presigner().getSignedUrl;
    return clientS3()[name as keyof ClientS3];
  },
});
