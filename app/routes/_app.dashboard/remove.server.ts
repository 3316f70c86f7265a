import { rejectOrRemoveIntent } from "./reject-or-remove.server.ts";

/** An admin removes a member. */
export const removeIntent = rejectOrRemoveIntent("remove");
