// A recovery code as the auth library stores it: 24 characters of a-z0-9 in groups of four
// (app/utils/auth.server.ts). Read however it was typed: any case, with or without dashes or spaces.
export function recoveryCodeFrom(input: string) {
  const characters = input.toLowerCase().replace(/[^a-z0-9]/g, "");
  return characters.match(/.{1,4}/g)?.join("-") ?? "";
}
