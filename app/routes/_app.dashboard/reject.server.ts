import { rejectOrRemoveIntent } from "./reject-or-remove.server.ts";

/** An admin declines a join request. */
export const rejectIntent = rejectOrRemoveIntent("reject");
