import type { Db } from "../client.ts";
import { betaFeedback } from "../schema.ts";

export async function insertFeedback(db: Db, userId: string, feedback: { message: string; rating: number | null }) {
  await db.insert(betaFeedback).values({ userId, ...feedback });
}
