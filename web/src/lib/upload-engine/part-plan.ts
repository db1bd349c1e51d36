// The part plan is shared with the command-line client, so both split files the same way.
export {
  MAX_PARTS,
  type PartPlan,
  type PlannedPart,
  partSizeFor,
  plannedParts,
  planParts,
  usesMultipart,
} from "@clipshare/shared";
