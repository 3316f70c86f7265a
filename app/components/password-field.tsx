import type { ComponentProps } from "react";
import { TextField } from "./forms.tsx";
import { PasswordInput } from "./ui/password-input.tsx";

/**
 * A form's password field, with its 'Show password' toggle. A module of its own, so that pages
 * whose forms have no password do not carry the toggle.
 */
export function PasswordField(props: Omit<ComponentProps<typeof TextField>, "type" | "as">) {
  return <TextField {...props} type="password" as={PasswordInput} />;
}
