import { env } from "cloudflare:test";
import { createAccount, joinByInviteLink, postForm } from "./helpers.ts";
import { today } from "#tests/today.ts";

// Shared test data. A person is `createAccount` (helpers.ts): a confirmed, signed-in account
// written straight into D1 with the rows sign-up and confirmation leave (account-factory.ts).
// Everything after that goes through the product's own forms (the invite link, the dashboard's
// give form), so that every other row is one the app itself writes.

export type Account = Awaited<ReturnType<typeof createAccount>>;
export type Member = Account & { membershipId: string };

/** A name no other test uses, such as `Org 1a2b3c`. */
export const uniqueName = (prefix: string) => `${prefix} ${crypto.randomUUID().slice(0, 6)}`;

/** The organisation an organisation account administers. */
export async function organisationAdministeredBy(adminId: string) {
  const row = await env.DB.prepare(
    "select organization_id as id from organization_roles where user_id = ? and role = 'admin'",
  )
    .bind(adminId)
    .first<{ id: string }>();
  if (!row) throw new Error(`user ${adminId} administers no organisation`);
  return row.id;
}

/** The id of a person's membership row in an organisation. */
export async function membershipOf({ organizationId, userId }: { organizationId: string; userId: string }) {
  const row = await env.DB.prepare("select id from organization_members where organization_id = ? and user_id = ?")
    .bind(organizationId, userId)
    .first<{ id: string }>();
  if (!row) throw new Error(`user ${userId} is not a member of ${organizationId}`);
  return row.id;
}

/** An organisation account with its organisation, as the organisation sign-up leaves it once confirmed. */
export async function createOrganisation({
  adminName = "Olive Admin",
  adminEmail,
  name = uniqueName("Org"),
}: { adminName?: string; adminEmail?: string; name?: string } = {}) {
  const admin = await createAccount({ name: adminName, email: adminEmail, organizationName: name });
  return { admin, organizationId: await organisationAdministeredBy(admin.id), organizationName: name };
}

/** A new person who joins the organisation through the admin's invite link. */
export async function addMember(organizationId: string, fields: { name?: string; email?: string } = {}) {
  const member = await createAccount(fields);
  await joinByInviteLink(organizationId, member.cookie);
  return { ...member, membershipId: await membershipOf({ organizationId, userId: member.id }) };
}

/** An organisation with its admin and one member who joined by the invite link. */
export async function createOrganisationWithMember({
  adminName,
  memberName = "Mia Member",
  name,
}: { adminName?: string; memberName?: string; name?: string } = {}) {
  const organisation = await createOrganisation({ adminName, name });
  const member = await addMember(organisation.organizationId, { name: memberName });
  return { ...organisation, member, membershipId: member.membershipId };
}

/**
 * An achievement an organisation offers a member, through the dashboard's give form (pending
 * until the member answers). Returns the form's response and the new row's id.
 */
export async function giveAchievement(
  adminCookie: string,
  {
    userId,
    title = "Star",
    type = "award",
    date = today(),
    ...fields
  }: {
    userId: string;
    title?: string;
    type?: string;
    date?: string;
  } & Record<string, string>,
) {
  const response = await postForm(
    "/dashboard",
    { intent: "give-achievement", formId: "give", userId, type, date, title, ...fields },
    { cookie: adminCookie },
  );
  const row = await env.DB.prepare(
    "select id from achievements where user_id = ? and title = ? order by created_at desc, rowid desc limit 1",
  )
    .bind(userId, title)
    .first<{ id: string }>();
  return { response, achievementId: row?.id ?? null };
}

/** An achievement a person adds to their own passport (accepted at once), through its form. */
export function addSelfAchievement(
  personCookie: string,
  {
    title,
    company = "Acme",
    type = "award",
    date = today(),
  }: { title: string; company?: string; type?: string; date?: string },
) {
  return postForm(
    "/passport",
    { intent: "add-self-achievement", formId: "self", title, company, date, type },
    { cookie: personCookie },
  );
}

/** A person (public passport, the default) with one self-added achievement per title, in order. */
export async function createPersonWithAchievements(name: string, titles: string[]) {
  const person = await createAccount({ name });
  for (const title of titles) await addSelfAchievement(person.cookie, { title });
  return person;
}
