import { answerIntent } from "./answer.server.ts";

export const rejectIntent = answerIntent("reject", "rejected", "Error rejecting achievement");
