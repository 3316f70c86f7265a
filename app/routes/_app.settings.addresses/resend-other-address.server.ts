import { z } from "zod";
import { resendLink } from "#app/services/other-addresses.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";
import { signedInAccount } from "#app/utils/signed-in-account.server.ts";

const schema = z.object({ intent: z.literal("resend-other-address"), addressId: z.string().min(1).max(64) });
const TITLE = "Error sending link";

/**
 * 'Resend link' for one of the person's pending addresses: a new link, the old one stops working.
 * Anyone else's address, a confirmed one, or one removed since: not found (404).
 */
export const resendOtherAddressIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: TITLE,
  formId: (fields) => `resend-other-address-${String(fields.get("addressId"))}`,
  async run({ addressId }, args) {
    const { userId, appUrl } = signedInAccount(args);
    const toast = await resendLink(args.context, { userId, appUrl, id: addressId, title: TITLE });
    return { toast, redirectTo: "/settings/addresses" };
  },
});
