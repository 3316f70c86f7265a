import { answerIntent } from "./answer.server.ts";

export const acceptIntent = answerIntent("accept", "accepted", "Error accepting achievement");
