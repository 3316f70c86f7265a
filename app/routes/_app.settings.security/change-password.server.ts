import { changePassword } from "#app/services/accounts/passwords.server.ts";
import { passwordSchema } from "#app/utils/form-schemas.ts";
import { defineIntent } from "#app/utils/intent.server.ts";
import { signedInAccount } from "#app/utils/signed-in-account.server.ts";
import type { Viewer } from "#app/utils/viewer.ts";

const TITLE = "Error changing password";

/** The current password, checked, and every other session ends; this one continues under a new token. */
export const changePasswordIntent = defineIntent<Viewer, typeof passwordSchema>({
  schema: passwordSchema,
  failureTitle: TITLE,
  hideFields: ["currentPassword", "newPassword", "confirmPassword"],
  async run({ currentPassword, newPassword }, args) {
    const cookies = await changePassword(args.context, signedInAccount(args), {
      currentPassword,
      newPassword,
      title: TITLE,
    });
    return { toast: { title: "Password updated" }, headers: cookies };
  },
});
