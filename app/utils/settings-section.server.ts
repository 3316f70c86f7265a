import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import type { z } from "zod";
import { runIntent, type Intent } from "./intent.server.ts";
import { requireViewer } from "./session.server.ts";
import type { Viewer } from "./viewer.ts";

/** Where an archived account finishes leaving (reactivate or delete everything): Settings' own page. */
export const SETTINGS_PATH = "/settings";

/**
 * The action of a Settings section (docs/decisions/080): the guard, then the section's own intents
 * through the one runner; a success goes back to the section (`back`). An intent of another
 * section is unknown here (400). An archived account may only finish leaving, at /settings: its
 * posts to a section go back there, nothing done.
 */
export async function runSettingsIntent(
  { request, context }: { request: Request; context: AppLoadContext },
  // Each intent's schema differs; `defineIntent` has checked each against its own `run`.
  intents: Record<string, Intent<Viewer, z.ZodType<any>>>, // eslint-disable-line @typescript-eslint/no-explicit-any
  back: string,
) {
  const viewer = await requireViewer(request, context, { allowArchived: true });
  if (viewer.archivedAt) return redirect(SETTINGS_PATH);
  return runIntent({ request, context }, intents, { viewer, fields: await request.formData(), back });
}
