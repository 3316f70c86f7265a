import { describe, expect, it } from "vitest";
import {
  createOrganisation,
  createOrganisationWithMember,
  giveAchievement,
  membershipOf,
  uniqueName,
} from "./factories.ts";
import { createAccount, inviteCode, postForm } from "./helpers.ts";
import { today } from "#tests/today.ts";

// Issue 18, "Cheap writes": every action reads what it needs in at most one D1 round trip and
// writes in at most one batch (the notification row included). The session guard every action
// starts with (the session, then the viewer's profile and organisations) is counted apart: it
// is measured on the same route, with the same cookie, by a post the route refuses as soon as
// the guard has run (an unknown intent), and the action's own round trips are what the action
// costs beyond it (docs/decisions/031).
const ACTION_BUDGET = 2;

const roundTrips = (response: Response) => {
  const header = response.headers.get("X-D1-Round-Trips");
  expect(header, "X-D1-Round-Trips header").not.toBeNull();
  return Number(header);
};

const organisation = () => createOrganisation({ adminName: "Ada Admin", name: uniqueName("Budget") });

const organisationWithMember = () =>
  createOrganisationWithMember({ adminName: "Ada Admin", memberName: "Mo Member", name: uniqueName("Budget") });

async function organisationWithRequest() {
  const { admin, organizationId } = await organisation();
  const person = await createAccount({ name: "Rae Requester" });
  await postForm("/dashboard", { intent: "request-join", organizationId }, { cookie: person.cookie });
  return { admin, person, organizationId, membershipId: await membershipOf({ organizationId, userId: person.id }) };
}

/** A member with an achievement offered by their organisation, waiting for an answer. */
async function memberWithOffer() {
  const { admin, member } = await organisationWithMember();
  const { achievementId } = await giveAchievement(admin.cookie, { userId: member.id, title: "Budget Star" });
  return { member, achievementId: achievementId! };
}

type Case = {
  action: string;
  /** The action's own round trips allowed: ACTION_BUDGET unless this row says why not. */
  budget?: number;
  /** Sets the scene; returns who acts, where, with what, and what the action's success looks like. */
  arrange: () => Promise<{ cookie: string; path: string; fields: Record<string, string> }>;
  /** The route's guard alone: a post it refuses right after the guard (defaults to an unknown intent). */
  guardOnly?: (path: string) => { path: string; fields: Record<string, string> };
};

const giveFields = (userId: string) => ({
  intent: "give-achievement",
  formId: "give",
  type: "award",
  date: today(),
  title: "Cheap",
  userId,
});

/**
 * Giving is one round trip of its own (decision 038): the whole request is budgeted at 2 by the
 * benchmark, and the session guard takes the other.
 */
const GIVE_BUDGET = 1;

/**
 * A membership that starts or ends also writes its 'Member of …' entry and credential (decision
 * 070): one read (the membership or entry, the organisation's key and status list) and one batch.
 */
const MEMBERSHIP_ENTRY_BUDGET = ACTION_BUDGET + 2;

const CASES: Case[] = [
  {
    action: "give",
    budget: GIVE_BUDGET,
    arrange: async () => {
      const { admin, member } = await organisationWithMember();
      // Without the recognition e-mail: locally the e-mail is a dev_mail row in D1 (below).
      await postForm("/settings?index", { intent: "update-preferences" }, { cookie: member.cookie });
      return { cookie: admin.cookie, path: "/dashboard", fields: giveFields(member.id) };
    },
  },
  {
    action: "give, with the recognition e-mail",
    // The dev mailbox stores the e-mail in D1; in production it goes to the mail API instead.
    budget: GIVE_BUDGET + 1,
    arrange: async () => {
      const { admin, member } = await organisationWithMember();
      return { cookie: admin.cookie, path: "/dashboard", fields: giveFields(member.id) };
    },
  },
  {
    action: "accept, the organisation's first credential (its key and status list made in the same batch)",
    arrange: async () => {
      const { member, achievementId } = await memberWithOffer();
      return { cookie: member.cookie, path: "/passport", fields: { intent: "accept", achievementId } };
    },
  },
  {
    action: "accept, a later credential (the next entry of its status list)",
    arrange: async () => {
      const { admin, member } = await organisationWithMember();
      const first = await giveAchievement(admin.cookie, { userId: member.id, title: "First Star" });
      await postForm("/passport", { intent: "accept", achievementId: first.achievementId! }, { cookie: member.cookie });
      const { achievementId } = await giveAchievement(admin.cookie, { userId: member.id, title: "Second Star" });
      return {
        cookie: member.cookie,
        path: "/passport",
        fields: { intent: "accept", achievementId: achievementId! },
      };
    },
  },
  {
    action: "reject",
    arrange: async () => {
      const { member, achievementId } = await memberWithOffer();
      return { cookie: member.cookie, path: "/passport", fields: { intent: "reject", achievementId } };
    },
  },
  {
    action: "hide",
    arrange: async () => {
      const { member, achievementId } = await memberWithOffer();
      await postForm("/passport", { intent: "accept", achievementId }, { cookie: member.cookie });
      return {
        cookie: member.cookie,
        path: "/passport",
        fields: { intent: "set-visibility", achievementId, visible: "false" },
      };
    },
  },
  {
    action: "approve",
    budget: MEMBERSHIP_ENTRY_BUDGET,
    arrange: async () => {
      const { admin, membershipId } = await organisationWithRequest();
      return { cookie: admin.cookie, path: "/dashboard", fields: { intent: "approve", membershipId } };
    },
  },
  {
    action: "reject request",
    arrange: async () => {
      const { admin, membershipId } = await organisationWithRequest();
      return { cookie: admin.cookie, path: "/dashboard", fields: { intent: "reject", membershipId } };
    },
  },
  {
    action: "remove",
    budget: MEMBERSHIP_ENTRY_BUDGET,
    arrange: async () => {
      const { admin, membershipId } = await organisationWithMember();
      return { cookie: admin.cookie, path: "/dashboard", fields: { intent: "remove", membershipId } };
    },
  },
  {
    action: "leave",
    budget: MEMBERSHIP_ENTRY_BUDGET,
    arrange: async () => {
      const { member, organizationId } = await organisationWithMember();
      return { cookie: member.cookie, path: "/dashboard", fields: { intent: "leave", organizationId } };
    },
  },
  {
    action: "join",
    budget: MEMBERSHIP_ENTRY_BUDGET,
    arrange: async () => {
      const { organizationId } = await organisation();
      const person = await createAccount({ name: "Jo Joiner" });
      // Posted as the invite page's script posts it (the action alone): a form post without
      // JavaScript also renders the page it answers, whose loader reads the invite again.
      return {
        cookie: person.cookie,
        path: `/join/${organizationId}.data`,
        fields: { code: await inviteCode(organizationId) },
      };
    },
    // An id that is not one: the route answers 404 after its guard, reading nothing more.
    guardOnly: () => ({ path: "/join/not-an-id.data", fields: {} }),
  },
  {
    action: "request",
    arrange: async () => {
      const { organizationId } = await organisation();
      const person = await createAccount({ name: "Rae Requester" });
      return { cookie: person.cookie, path: "/dashboard", fields: { intent: "request-join", organizationId } };
    },
  },
  {
    action: "subscribe",
    arrange: async () => {
      const { admin, membershipId } = await organisationWithMember();
      return { cookie: admin.cookie, path: "/dashboard", fields: { intent: "subscribe", membershipId } };
    },
  },
  {
    // Issue 32: the largest import there is, written in one batch (decision 067).
    action: "import history, 500 entries",
    budget: 1,
    arrange: async () => {
      const person = await createAccount();
      const fields: Record<string, string> = { intent: "add-history" };
      for (let index = 0; index < 500; index++) {
        const entry = (field: string, value: string) => (fields[`entries[${index}].${field}`] = value);
        entry("key", `history:${String(index).padStart(24, "k")}`);
        entry("source", "Positions.csv");
        entry("selected", "on");
        entry("title", `Role ${index}`);
        entry("company", "Fabrikam");
        entry("date", "2020-01-01");
        entry("type", "milestone");
        entry("description", "A description of a fair length, as a LinkedIn position has one.");
      }
      return { cookie: person.cookie, path: "/passport/import-history", fields };
    },
  },
  {
    action: "feedback",
    arrange: async () => {
      const person = await createAccount();
      return {
        cookie: person.cookie,
        path: "/settings?index",
        fields: { intent: "send-feedback", message: "Lovely", rating: "5" },
      };
    },
  },
  {
    action: "profile edit",
    arrange: async () => {
      const person = await createAccount();
      return {
        cookie: person.cookie,
        path: "/settings?index",
        fields: { intent: "update-profile", fullName: "Pat Renamed", bio: "Cheap writes." },
      };
    },
  },
];

describe("D1 round trips per action (X-D1-Round-Trips)", () => {
  it.each(CASES)("$action: within its budget beyond the session guard", async ({ arrange, guardOnly, budget }) => {
    const { cookie, path, fields } = await arrange();
    const baseline = guardOnly?.(path) ?? { path, fields: { intent: "no-such-intent" } };
    const guard = await postForm(baseline.path, baseline.fields, { cookie });
    expect([400, 404]).toContain(guard.status);

    const response = await postForm(path, fields, { cookie });
    // The action succeeded (a redirect with its toast; joining answers its page's data).
    expect(response.status, await response.clone().text()).toBeLessThan(400);
    const own = roundTrips(response) - roundTrips(guard);
    expect(own).toBeLessThanOrEqual(budget ?? ACTION_BUDGET);
  });
});
