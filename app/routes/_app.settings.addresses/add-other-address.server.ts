import { z } from "zod";
import { addOtherAddress } from "#app/services/other-addresses.server.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { emailField } from "#app/utils/validation.ts";
import type { Viewer } from "#app/utils/viewer.ts";
import { signedInAccount } from "#app/utils/signed-in-account.server.ts";

const schema = z.object({ intent: z.literal("add-other-address"), address: emailField });
const TITLE = "Error adding email address";

/**
 * 'Add address' under 'Other e-mail addresses' (decision 068): the address waits, pending, for the
 * link mailed to it. Refused: the person's own sign-in address, one they confirmed already, more
 * than the cap, too many links in an hour.
 */
export const addOtherAddressIntent = defineIntent<Viewer, typeof schema>({
  schema,
  failureTitle: TITLE,
  async run({ address }, args) {
    const { userId, appUrl } = signedInAccount(args);
    const toast = await addOtherAddress(args.context, { userId, appUrl, address, title: TITLE });
    return { toast, redirectTo: "/settings/addresses" };
  },
});
