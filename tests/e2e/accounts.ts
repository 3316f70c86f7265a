import { expect, type APIRequestContext, type Page } from "@playwright/test";

export const PASSWORD = "correct-horse-1";

export function uniqueEmail(prefix = "user") {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;
}

/**
 * The first link to `path` (with its token) in the e-mails to this address, newest first, from
 * the dev mailbox, as path and query to open on the test server; polled until it arrives.
 */
async function mailedLink(request: APIRequestContext, email: string, path: string) {
  const pattern = new RegExp(`(https?:\\/\\/\\S+${path}\\?token=\\S+)`);
  let link: string | undefined;
  await expect
    .poll(async () => {
      const mail = (await (await request.get(`/dev/mail.json?to=${encodeURIComponent(email)}`)).json()) as {
        text: string;
      }[];
      link = mail.map((item) => pattern.exec(item.text)?.[1]).find(Boolean);
      return link;
    })
    .toBeTruthy();
  return new URL(link!).pathname + new URL(link!).search;
}

/** The confirmation link of the newest e-mail to this address, from the dev mailbox. */
export const confirmationLink = (request: APIRequestContext, email: string) =>
  mailedLink(request, email, "/auth/confirm");

/** The forgot-password link of the newest such e-mail to this address, from the dev mailbox. */
export const passwordResetLink = (request: APIRequestContext, email: string) =>
  mailedLink(request, email, "/auth/reset-password");

/** The link that confirms another e-mail address of an account (Settings), from the dev mailbox. */
export const otherAddressLink = (request: APIRequestContext, email: string) =>
  mailedLink(request, email, "/settings/addresses/confirm");

/**
 * A confirmed account, signed in on `page` (its session cookie left in the page's context), as
 * signing up and opening the confirmation link leave it: written by the test server's
 * POST /__test/accounts (workers/testing/account-route.ts), which saves a sign-up, a mail and a
 * confirmation per test. The tests about signing up and confirming use the forms themselves.
 */
export async function newAccount(
  page: Page,
  {
    name = "Test Person",
    email = uniqueEmail(),
    organizationName,
  }: { name?: string; email?: string; organizationName?: string } = {},
) {
  const made = await page.request.post("/__test/accounts", {
    data: { name, email, password: PASSWORD, ...(organizationName ? { organizationName } : {}) },
  });
  expect(made.ok()).toBe(true);
  const { id } = (await made.json()) as { id: string };
  return { id, name, email, password: PASSWORD };
}

/** A name no other test uses, such as `Org 1a2b3c`. */
export const uniqueName = (prefix: string) => `${prefix} ${crypto.randomUUID().slice(0, 6)}`;

/**
 * An organisation account with its organisation, signed in on `page` (left on /dashboard), and
 * what its admin shares: the invite link (path and query, to open on the test server) and the
 * organisation's id in it.
 */
export async function createOrganisation(
  page: Page,
  { adminName = "Olive Admin", name = uniqueName("Org") }: { adminName?: string; name?: string } = {},
) {
  const admin = await newAccount(page, { name: adminName, organizationName: name });
  await page.goto("/dashboard");
  const link = new URL(await page.getByRole("textbox", { name: "Invite link" }).inputValue());
  return { admin, name, invitePath: link.pathname + link.search, organizationId: link.pathname.split("/").pop()! };
}

/** A new person, signed in on `page`, who joins the organisation through its invite link. */
export async function joinAsNewMember(page: Page, invitePath: string, fields: { name?: string; email?: string } = {}) {
  const member = await newAccount(page, fields);
  await page.goto(invitePath);
  await expect(page.getByRole("heading", { name: "Successfully joined!" })).toBeVisible();
  // The page then moves on to the dashboard by itself (REDIRECT_DELAY_MS later): wait for it, or
  // the test's next navigation of this page may start just as that one does and be cut short.
  await expect(page).toHaveURL("/dashboard");
  return member;
}
