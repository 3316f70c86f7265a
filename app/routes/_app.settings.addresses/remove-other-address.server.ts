import { z } from "zod";
import { removeOtherAddress } from "#app/services/other-addresses.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const schema = z.object({ intent: z.literal("remove-other-address"), addressId: z.string().min(1).max(64) });

/**
 * 'Remove' one of the person's other addresses, pending or confirmed: credentials issued to it no
 * longer match them. Anyone else's address, or one removed since: not found (404).
 */
export const removeOtherAddressIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: "Error removing email address",
  formId: (fields) => `remove-other-address-${String(fields.get("addressId"))}`,
  async run({ addressId }, { context, viewer }) {
    const address = await removeOtherAddress(context, { userId: viewer.id, id: addressId });
    return {
      toast: { title: "Address removed", description: `${address} is no longer one of your addresses.` },
      redirectTo: "/settings/addresses",
    };
  },
});
