/** File-request routes of the OpenAPI table (operations.ts): management and the visitor's. */
import * as w from "@clipshare/shared";
import { list, type Operation } from "./operations";

const TAG = "File requests";
const receipt = w.receivedFile;

export const REQUEST_OPERATIONS: Record<string, Operation> = {
  "POST /requests": {
    summary: "Create a file request",
    tag: TAG,
    access: "key",
    body: w.createFileRequestBody,
    data: w.fileRequest,
  },
  "GET /requests": {
    summary: "List own file requests (the admin: all)",
    tag: TAG,
    access: "key",
    data: list(w.fileRequest),
  },
  "GET /requests/:id": {
    summary: "One file request with its uploads and their notes",
    tag: TAG,
    access: "key",
    data: w.fileRequestDetail,
  },
  "PUT /requests/:id": {
    summary: "Edit, close or reopen a file request",
    tag: TAG,
    access: "key",
    body: w.updateFileRequestBody,
    data: w.fileRequest,
  },
  "DELETE /requests/:id": {
    summary: "Delete a file request (received files stay)",
    tag: TAG,
    access: "key",
  },
  "GET /public/requests/:slug": {
    summary: "What a file request's visitor page shows",
    tag: TAG,
    access: "public",
    data: w.publicFileRequest,
  },
  "POST /public/requests/:slug/unlock": {
    summary: "Open a password-protected file request",
    tag: TAG,
    access: "public",
    body: w.requestPasswordBody,
    data: w.requestUnlocked,
  },
  "POST /public/requests/:slug/uploads": {
    summary: "Take a slot and start an upload in parts",
    tag: TAG,
    access: "public",
    body: w.requestUploadInitBody,
    data: w.requestUploadStarted,
  },
  "POST /public/requests/:slug/uploads/:upload/resume": {
    summary: "The parts stored so far, and fresh part URLs",
    tag: TAG,
    access: "public",
    data: w.requestUploadResume,
  },
  "POST /public/requests/:slug/uploads/:upload/complete": {
    summary: "Assemble the parts: the file is received",
    tag: TAG,
    access: "public",
    body: w.requestUploadCompleteBody,
    data: receipt,
  },
  "POST /public/requests/:slug/uploads/:upload/abort": {
    summary: "Stop an upload and give its slot back",
    tag: TAG,
    access: "public",
  },
};
