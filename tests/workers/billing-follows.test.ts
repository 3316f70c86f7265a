import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, inject, it, vi } from "vitest";
import { archiveUser, purgeUser } from "#app/services/account-purge.server.ts";
import { leave, rejectOrRemove } from "#app/services/memberships.server.ts";
import { endSubscriptionsOfFormerAdmins } from "#app/services/payer-subscriptions.server.ts";
import { createPersonalSubscription, openCustomerPortal } from "#app/services/subscriptions.server.ts";
import { Forbidden } from "#app/utils/domain-errors.server.ts";
import { createDb } from "#db/client.ts";
import { getLoadContext } from "#workers/load-context.ts";
import { expectConsoleError } from "./console-errors.ts";
import { addMember, createOrganisation, uniqueName } from "./factories.ts";
import { countRows, get, joinByInviteLink, ORIGIN, postForm, toastFrom } from "./helpers.ts";

// Billing follows the person (decision 059): each admin pays through their own Stripe customer,
// and whoever stops running an organisation (leaving, removal, archive, purge) stops paying for
// its members. Against the local fake Stripe API (tests/workers/fake-stripe.ts).

const stripeApiBase = () => inject("stripeApiBase");
const STRIPE = () => ({ STRIPE_SECRET_KEY: "sk_test_fake", STRIPE_API_BASE: stripeApiBase() });

/** A context as a request to the Worker builds it, with Stripe aimed at the fake. */
function stripeContext() {
  return getLoadContext({
    request: new Request(ORIGIN),
    context: { cloudflare: { env: { ...env, ...STRIPE() } as Env, ctx: createExecutionContext() } },
    requestId: `req-${crypto.randomUUID()}`,
  });
}

type Recorded = { method: string; path: string; body: string };
const stripeRequests = async () => (await (await fetch(`${stripeApiBase()}/__requests`)).json()) as Recorded[];
const cancelsOf = async (subscriptionId: string) =>
  (await stripeRequests()).filter(
    (request) => request.method === "DELETE" && request.path === `/v1/subscriptions/${subscriptionId}`,
  ).length;

const subscriptionOf = (membershipId: string) =>
  env.DB.prepare("select subscription_status as status from organization_members where id = ?")
    .bind(membershipId)
    .first<{ status: string }>()
    .then((row) => row?.status ?? null);

/** The state a completed checkout leaves: the member subscribed, paid by `payerId` through `customerId`. */
async function paysFor(
  payerId: string,
  membershipId: string,
  { subscriptionId = `sub_${crypto.randomUUID()}`, customerId = `cus_${crypto.randomUUID()}` } = {},
) {
  await env.DB.prepare(
    "update organization_members set subscription_status = 'active', stripe_subscription_id = ?, stripe_customer_id = ?, subscribed_by = ?, subscription_event_at = ? where id = ?",
  )
    .bind(subscriptionId, customerId, payerId, Date.now() - 60_000, membershipId)
    .run();
  return subscriptionId;
}

async function makeAdmin(userId: string, organizationId: string) {
  await env.DB.prepare("update organization_roles set role = 'admin' where user_id = ? and organization_id = ?")
    .bind(userId, organizationId)
    .run();
}

/**
 * Organisation A run by its founder and Bea, a second admin who pays for two members there and
 * is also the admin of organisation B, where she pays for one more.
 */
async function secondAdminWhoPays() {
  const { admin: founder, organizationId } = await createOrganisation({
    adminName: "Fay Founder",
    name: uniqueName("A"),
  });
  const bea = await addMember(organizationId, { name: "Bea Second" });
  await makeAdmin(bea.id, organizationId);
  const mia = await addMember(organizationId, { name: "Mia Member" });
  const max = await addMember(organizationId, { name: "Max Member" });
  const finn = await addMember(organizationId, { name: "Finn Fields" });
  // Bea also runs organisation B, beside its founder.
  const other = await createOrganisation({ adminName: "Otto Other", name: uniqueName("B") });
  await joinByInviteLink(other.organizationId, bea.cookie);
  await makeAdmin(bea.id, other.organizationId);
  const olga = await addMember(other.organizationId, { name: "Olga Other" });
  const customer = `cus_${crypto.randomUUID()}`;
  const paid = {
    mia: await paysFor(bea.id, mia.membershipId, { customerId: customer }),
    max: await paysFor(bea.id, max.membershipId, { customerId: customer }),
    olga: await paysFor(bea.id, olga.membershipId, { customerId: customer }),
    // The founder's own payment, which Bea's leaving must not touch.
    finn: await paysFor(founder.id, finn.membershipId),
  };
  return { founder, bea, beaCustomer: customer, organizationId, other, mia, max, finn, olga, paid };
}

describe("billing follows the person", () => {
  it("leaving: the subscriptions the admin pays for in that organisation are cancelled at Stripe, none elsewhere", async () => {
    const world = await secondAdminWhoPays();
    const toast = await leave(stripeContext(), world.bea.id, world.organizationId);

    expect(toast).toEqual({
      title: "Left organisation",
      description: "The 2 subscriptions you paid for here have been cancelled.",
    });
    for (const id of [world.paid.mia, world.paid.max]) expect(await cancelsOf(id)).toBe(1);
    expect(await subscriptionOf(world.mia.membershipId)).toBe("inactive");
    expect(await subscriptionOf(world.max.membershipId)).toBe("inactive");
    // Organisation B, which she still runs, and the founder's own payment are untouched.
    expect(await cancelsOf(world.paid.olga)).toBe(0);
    expect(await subscriptionOf(world.olga.membershipId)).toBe("active");
    expect(await cancelsOf(world.paid.finn)).toBe(0);
    expect(await subscriptionOf(world.finn.membershipId)).toBe("active");
  });

  it("removal: an admin removed by another stops paying for that organisation's members", async () => {
    const world = await secondAdminWhoPays();
    const beaMembership = await env.DB.prepare(
      "select id from organization_members where user_id = ? and organization_id = ?",
    )
      .bind(world.bea.id, world.organizationId)
      .first<{ id: string }>();
    const toast = await rejectOrRemove(stripeContext(), world.founder.id, beaMembership!.id, "remove");

    expect(toast).toEqual({
      title: "Member removed",
      description: "The 2 subscriptions Bea Second paid for here have been cancelled.",
    });
    for (const id of [world.paid.mia, world.paid.max]) expect(await cancelsOf(id)).toBe(1);
    expect(await subscriptionOf(world.mia.membershipId)).toBe("inactive");
    expect(await cancelsOf(world.paid.olga)).toBe(0);
    expect(await cancelsOf(world.paid.finn)).toBe(0);
  });

  it("archive: every subscription the person pays for, in every organisation, is cancelled", async () => {
    const world = await secondAdminWhoPays();
    await archiveUser(stripeContext(), world.bea.id, null);

    for (const id of [world.paid.mia, world.paid.max, world.paid.olga]) expect(await cancelsOf(id)).toBe(1);
    for (const member of [world.mia, world.max, world.olga])
      expect(await subscriptionOf(member.membershipId)).toBe("inactive");
    expect(await cancelsOf(world.paid.finn)).toBe(0);
    expect(await subscriptionOf(world.finn.membershipId)).toBe("active");
  });

  it("purge: what the person still pays for is cancelled before the account (and the link to the payer) goes", async () => {
    const world = await secondAdminWhoPays();
    const stores = { db: createDb(env.DB), media: env.MEDIA, env: { ...env, ...STRIPE() } };
    await purgeUser(stores, world.bea.id);

    for (const id of [world.paid.mia, world.paid.max, world.paid.olga]) expect(await cancelsOf(id)).toBe(1);
    expect(await subscriptionOf(world.olga.membershipId)).toBe("inactive");
    expect(await countRows("select count(*) as n from users where id = ?", world.bea.id)).toBe(0);
  });

  it("purge waits for Stripe: a cancel that fails leaves the account for the next run", async () => {
    const { admin, organizationId } = await createOrganisation({ name: uniqueName("Down") });
    const member = await addMember(organizationId);
    const subscription = await paysFor(admin.id, member.membershipId, {
      subscriptionId: `sub_down_2_${crypto.randomUUID()}`,
    });
    expectConsoleError(/stripe cancel failed/);
    const stores = { db: createDb(env.DB), media: env.MEDIA, env: { ...env, ...STRIPE() } };
    await expect(purgeUser(stores, admin.id)).rejects.toThrow(/not all cancelled/);
    expect(await countRows("select count(*) as n from users where id = ?", admin.id)).toBe(1);

    // The next run: Stripe answers, the subscription ends, the account goes.
    await purgeUser(stores, admin.id);
    expect(await cancelsOf(subscription)).toBe(3);
    expect(await subscriptionOf(member.membershipId)).toBe("inactive");
    expect(await countRows("select count(*) as n from users where id = ?", admin.id)).toBe(0);
  });

  it("a Stripe failure keeps the leaving; the daily sweep cancels what is left", async () => {
    const world = await secondAdminWhoPays();
    const down = await paysFor(world.bea.id, world.mia.membershipId, {
      subscriptionId: `sub_down_2_${crypto.randomUUID()}`,
    });
    const context = stripeContext();
    expectConsoleError(/stripe cancel failed/);
    const errors = vi.spyOn(console, "error");
    const toast = await leave(context, world.bea.id, world.organizationId);
    const logged = errors.mock.calls
      .map(([line]) => String(line))
      .filter((line) => line.includes("stripe cancel failed"));
    errors.mockRestore();

    // The membership is gone whatever Stripe said, and the person is told what is still to come.
    expect(
      await countRows(
        "select count(*) as n from organization_members where user_id = ? and organization_id = ?",
        world.bea.id,
        world.organizationId,
      ),
    ).toBe(0);
    expect(toast).toEqual({
      title: "Left organisation",
      description: "The subscriptions you paid for here will be cancelled within a day.",
    });
    expect(await subscriptionOf(world.max.membershipId)).toBe("inactive");
    expect(await subscriptionOf(world.mia.membershipId)).toBe("active");
    // Logged with the request's id, for whoever looks into it.
    expect(logged.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ requestId: context.requestId, reason: "left", retry: "daily sweep" }),
    ]);

    // The cron finds it (its payer no longer runs the organisation) and Stripe answers this time.
    expect(await endSubscriptionsOfFormerAdmins(stripeContext())).toEqual({ ended: 1, failed: 0, more: false });
    expect(await cancelsOf(down)).toBe(3);
    expect(await subscriptionOf(world.mia.membershipId)).toBe("inactive");
    // Organisation B's subscription stays: Bea still runs B.
    expect(await subscriptionOf(world.olga.membershipId)).toBe("active");
  });

  it("a subscription already gone at Stripe counts as cancelled", async () => {
    const world = await secondAdminWhoPays();
    const gone = await paysFor(world.bea.id, world.mia.membershipId, {
      subscriptionId: `sub_gone_${crypto.randomUUID()}`,
    });
    await leave(stripeContext(), world.bea.id, world.organizationId);
    expect(await cancelsOf(gone)).toBe(1);
    expect(await subscriptionOf(world.mia.membershipId)).toBe("inactive");
  });

  it("without Stripe (the simulated checkout), leaving ends them too and the toast says so", async () => {
    const world = await secondAdminWhoPays();
    const response = await postForm(
      "/dashboard",
      { intent: "leave", organizationId: world.organizationId },
      { cookie: world.bea.cookie },
    );
    expect(response.status).toBe(302);
    expect(toastFrom(response)).toMatchObject({
      title: "Left organisation",
      description: "The 2 subscriptions you paid for here have been cancelled.",
    });
    expect(await subscriptionOf(world.mia.membershipId)).toBe("inactive");
    expect(await subscriptionOf(world.olga.membershipId)).toBe("active");
  });
});

describe("each admin bills to their own customer", () => {
  it("a second admin cannot open the billing portal of a customer another admin's checkout created", async () => {
    const world = await secondAdminWhoPays();
    const founderCustomer = `cus_${crypto.randomUUID()}`;
    await paysFor(world.founder.id, world.finn.membershipId, { customerId: founderCustomer });

    // Through the dashboard (the simulated portal): refused, and its page as well.
    const refused = await postForm(
      "/dashboard",
      { intent: "manage-subscription", membershipId: world.finn.membershipId },
      { cookie: world.bea.cookie },
    );
    expect(refused.status).toBe(403);
    expect(
      (await get(`/billing/simulated-portal?membershipId=${world.finn.membershipId}`, world.bea.cookie)).status,
    ).toBe(403);
    // With Stripe: refused before any portal session is created for the founder's customer.
    await expect(
      openCustomerPortal(stripeContext(), world.bea.id, world.finn.membershipId, ORIGIN),
    ).rejects.toBeInstanceOf(Forbidden);
    const portals = async () =>
      (await stripeRequests()).filter(
        (request) =>
          request.path === "/v1/billing_portal/sessions" &&
          new URLSearchParams(request.body).get("customer") === founderCustomer,
      ).length;
    expect(await portals()).toBe(0);

    // The founder, who pays, opens it.
    const { url } = await openCustomerPortal(stripeContext(), world.founder.id, world.finn.membershipId, ORIGIN);
    expect(url).toMatch(/^https:\/\/billing\.stripe\.test\//);
    expect(await portals()).toBe(1);
    // The dashboard offers Manage only to the payer: the founder's for Finn, not Bea's for Mia.
    const founderPage = await (await get("/dashboard", world.founder.cookie)).text();
    const manages = (membershipId: string) =>
      new RegExp(`name="membershipId" value="${membershipId}"/><button[^>]*value="manage-subscription"`).test(
        founderPage,
      );
    expect(manages(world.finn.membershipId)).toBe(true);
    expect(manages(world.mia.membershipId)).toBe(false);
  });

  it("a checkout bills the admin's own customer, never the one another admin's checkout left on the membership", async () => {
    const world = await secondAdminWhoPays();
    // Finn's earlier subscription was the founder's, and has ended; the membership keeps its customer.
    const founderCustomer = `cus_${crypto.randomUUID()}`;
    await paysFor(world.founder.id, world.finn.membershipId, { customerId: founderCustomer });
    await env.DB.prepare("update organization_members set subscription_status = 'inactive' where id = ?")
      .bind(world.finn.membershipId)
      .run();

    await createPersonalSubscription(
      stripeContext(),
      world.bea.id,
      { organizationId: world.organizationId, memberUserId: world.finn.id },
      ORIGIN,
    );
    const checkout = (await stripeRequests())
      .filter((request) => request.path === "/v1/checkout/sessions")
      .map((request) => new URLSearchParams(request.body))
      .filter((form) => form.get("metadata[memberUserId]") === world.finn.id)
      .at(-1)!;
    expect(checkout.get("metadata[adminUserId]")).toBe(world.bea.id);
    expect(checkout.get("customer")).toBe(world.beaCustomer);
  });
});
