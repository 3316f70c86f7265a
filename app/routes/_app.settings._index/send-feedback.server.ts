import { sendFeedback } from "#app/services/feedback.server.ts";
import { feedbackSchema } from "#app/utils/form-schemas.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

/** A resubmitted form (same key) is answered the same, and stored once. */
export const sendFeedbackIntent = defineIntent<Viewer, typeof feedbackSchema>({
  schema: feedbackSchema,
  failureTitle: "Error",
  async run(value, { context, viewer }) {
    await sendFeedback(context, viewer.id, {
      message: value.message,
      rating: value.rating ?? null,
      submissionKey: value.submissionKey ?? null,
    });
    return { toast: { title: "Feedback sent", description: "Thank you for helping us improve." } };
  },
});
