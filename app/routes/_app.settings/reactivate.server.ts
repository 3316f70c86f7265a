import { redirect } from "@remix-run/cloudflare";
import { z } from "zod";
import { reactivateUser } from "#app/services/account-purge.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("reactivate") });

export const reactivateIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error",
  hideFields: ["password"],
  async run(_, { context, viewer }) {
    if (!viewer.archivedAt) return redirect("/dashboard");
    await reactivateUser(context, viewer.id);
    return {
      toast: { title: "Welcome back", description: "Your account has been reactivated." },
      redirectTo: "/dashboard",
    };
  },
});
