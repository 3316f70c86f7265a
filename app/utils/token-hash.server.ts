/**
 * The hash a one-time token is stored under (SHA-256, hex): the token itself is only ever in the
 * link or response that hands it out, so a leaked table hands out no token.
 */
export async function tokenHashOf(token: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
