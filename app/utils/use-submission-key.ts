import { useRouteLoaderData } from "@remix-run/react";

/**
 * The idempotency key of this render's forms that create rows (achievements, feedback), from the
 * signed-in layout's loader (decision 012). Resubmitting a rendered form repeats its key.
 */
export function useSubmissionKey() {
  const data = useRouteLoaderData("routes/_app") as { submissionKey?: string } | undefined;
  return data?.submissionKey ?? "";
}
