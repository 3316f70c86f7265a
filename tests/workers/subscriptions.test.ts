import { createExecutionContext, env } from "cloudflare:test";
import Stripe from "stripe";
import { describe, expect, inject, it } from "vitest";
import { rejectOrRemove } from "#app/services/memberships.server.ts";
import { createPersonalSubscription } from "#app/services/subscriptions.server.ts";
import { MEMBER_PRICE_LABEL, MEMBER_SUBSCRIPTION } from "#app/utils/constants.ts";
import { Forbidden } from "#app/utils/domain-errors.server.ts";
import { getLoadContext } from "#workers/load-context.ts";
import { countRows, createAccount, get, ORIGIN, postForm } from "./helpers.ts";
import { createOrganisation, createOrganisationWithMember, membershipOf, uniqueName } from "./factories.ts";

const SECRET = "whsec_test_0123456789abcdef";

const organisationWithMember = (memberName = "Mia Member") =>
  createOrganisationWithMember({ adminName: "Ada Admin", memberName, name: uniqueName("Payers") });

const subscriptionOf = (membershipId: string) =>
  env.DB.prepare(
    "select subscription_status as status, stripe_subscription_id as subscriptionId, subscribed_by as payer from organization_members where id = ?",
  )
    .bind(membershipId)
    .first<{ status: string; subscriptionId: string | null; payer: string | null }>();
const notificationsOf = (userId: string, title: string) =>
  countRows("select count(*) as n from notifications where user_id = ? and title = ?", userId, title);

/** A context as a request to the Worker builds it, with some settings changed. */
function contextWith(overrides: Record<string, string>) {
  return getLoadContext({
    request: new Request(ORIGIN),
    context: { cloudflare: { env: { ...env, ...overrides } as Env, ctx: createExecutionContext() } },
  });
}

describe("create-personal-subscription", () => {
  it("states the price it charges: the written-out label is the subscription's amount as en-GB formats it", () => {
    const { unitAmount, currency } = MEMBER_SUBSCRIPTION;
    const charged = new Intl.NumberFormat("en-GB", { style: "currency", currency }).format(unitAmount / 100);
    expect(MEMBER_PRICE_LABEL).toBe(charged);
  });

  it("an admin opens checkout for an approved member: the local simulated checkout completes it", async () => {
    const { admin, member, membershipId } = await organisationWithMember();
    const response = await postForm("/dashboard", { intent: "subscribe", membershipId }, { cookie: admin.cookie });
    expect(response.status).toBe(302);
    const checkout = new URL(response.headers.get("Location")!, ORIGIN);
    expect(checkout.pathname).toBe("/billing/simulated-checkout");

    const page = await get(checkout.pathname + checkout.search, admin.cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Mia Member");
    expect(html).toContain("£2.99 per month");

    const done = await postForm(
      checkout.pathname,
      { intent: "complete", ...Object.fromEntries(checkout.searchParams) },
      { cookie: admin.cookie },
    );
    expect(done.headers.get("Location")).toBe("/dashboard");
    expect(await subscriptionOf(membershipId)).toEqual(expect.objectContaining({ status: "active", payer: admin.id }));
    expect(await notificationsOf(admin.id, "Subscription active")).toBe(1);
    expect(await (await get("/dashboard", admin.cookie)).text()).toContain("Subscribed");

    // Cancel ends it through the same event handling, and the payer hears of it.
    const cancelled = await postForm(
      "/dashboard",
      { intent: "cancel-subscription", membershipId },
      { cookie: admin.cookie },
    );
    expect(cancelled.status).toBe(302);
    expect((await subscriptionOf(membershipId))?.status).toBe("inactive");
    expect(await notificationsOf(admin.id, "Subscription ended")).toBe(1);
    expect(await notificationsOf(member.id, "Subscription ended")).toBe(0);
  });

  it("is forbidden to a member who is not an admin", async () => {
    const { member, membershipId } = await organisationWithMember();
    expect(
      (await postForm("/dashboard", { intent: "subscribe", membershipId }, { cookie: member.cookie })).status,
    ).toBe(403);
    expect((await subscriptionOf(membershipId))?.status).toBe("inactive");
  });

  it("is forbidden for another organisation's member, by form or by the simulated checkout", async () => {
    const { admin, organizationId } = await organisationWithMember();
    const other = await organisationWithMember("Fay Foreign");
    expect(
      (
        await postForm(
          "/dashboard",
          { intent: "subscribe", membershipId: other.membershipId },
          { cookie: admin.cookie },
        )
      ).status,
    ).toBe(403);
    // Naming one's own organisation with a foreign member does not help either.
    const fields = { organizationId, memberUserId: other.member.id };
    expect((await get(`/billing/simulated-checkout?${new URLSearchParams(fields)}`, admin.cookie)).status).toBe(403);
    expect(
      (await postForm("/billing/simulated-checkout", { intent: "complete", ...fields }, { cookie: admin.cookie }))
        .status,
    ).toBe(403);
    // The service itself refuses (its Forbidden is what the routes answer with 403).
    await expect(createPersonalSubscription(contextWith({}), admin.id, fields, ORIGIN)).rejects.toBeInstanceOf(
      Forbidden,
    );
    expect((await subscriptionOf(other.membershipId))?.status).toBe("inactive");
  });

  it("is forbidden for a pending member", async () => {
    const { admin, organizationId } = await createOrganisation({ adminName: "Ada Admin", name: uniqueName("Payers") });
    const person = await createAccount({ name: "Pat Pending" });
    await postForm("/dashboard", { intent: "request-join", organizationId }, { cookie: person.cookie });
    const membershipId = await membershipOf({ organizationId, userId: person.id });
    expect((await postForm("/dashboard", { intent: "subscribe", membershipId }, { cookie: admin.cookie })).status).toBe(
      403,
    );
  });

  it("with a Stripe key, creates a subscription-mode Checkout Session at £2.99 a month in GBP, tied to the member", async () => {
    const { admin, member, organizationId } = await organisationWithMember();
    const stripeApiBase = inject("stripeApiBase");
    const context = contextWith({ STRIPE_SECRET_KEY: "sk_test_fake", STRIPE_API_BASE: stripeApiBase });
    const { url } = await createPersonalSubscription(
      context,
      admin.id,
      { organizationId, memberUserId: member.id },
      ORIGIN,
    );
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);

    const requests = (await (await fetch(`${stripeApiBase}/__requests`)).json()) as {
      method: string;
      path: string;
      body: string;
      authorization: string;
    }[];
    const created = requests.filter((request) => request.path === "/v1/checkout/sessions").at(-1)!;
    expect(created.authorization).toBe("Bearer sk_test_fake");
    const form = new URLSearchParams(created.body);
    expect(form.get("mode")).toBe("subscription");
    expect(form.get("line_items[0][price_data][currency]")).toBe("gbp");
    expect(form.get("line_items[0][price_data][unit_amount]")).toBe("299");
    expect(form.get("line_items[0][price_data][recurring][interval]")).toBe("month");
    expect(form.get("metadata[organizationId]")).toBe(organizationId);
    expect(form.get("metadata[memberUserId]")).toBe(member.id);
    expect(form.get("metadata[adminUserId]")).toBe(admin.id);
    expect(form.get("subscription_data[metadata][memberUserId]")).toBe(member.id);
  });
});

// ---- The webhook ----

let clock = Math.floor(Date.now() / 1000) - 100;
const nextCreated = () => ++clock;

function stripeEvent(type: string, object: Record<string, unknown>, created = nextCreated()) {
  return { id: `evt_${crypto.randomUUID()}`, object: "event", type, created, data: { object } };
}
const checkoutCompleted = (metadata: Record<string, string>, subscription: string, created?: number) =>
  stripeEvent(
    "checkout.session.completed",
    {
      object: "checkout.session",
      mode: "subscription",
      status: "complete",
      payment_status: "paid",
      subscription,
      customer: "cus_1",
      metadata,
    },
    created,
  );
const subscriptionEvent = (
  type: "updated" | "deleted",
  id: string,
  status: string,
  metadata: Record<string, string>,
  created?: number,
) =>
  stripeEvent(
    `customer.subscription.${type}`,
    { object: "subscription", id, status, customer: "cus_1", metadata },
    created,
  );

async function deliver(event: object, { secret = SECRET, timestamp }: { secret?: string; timestamp?: number } = {}) {
  const payload = JSON.stringify(event);
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret,
    timestamp,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  return postWebhook(payload, signature);
}
function postWebhook(payload: string, signature: string) {
  return fetchSelf("/api/stripe/webhook", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
    body: payload,
  });
}
async function fetchSelf(path: string, init: RequestInit) {
  const { SELF } = await import("cloudflare:test");
  return SELF.fetch(`${ORIGIN}${path}`, init);
}

describe("the Stripe webhook", () => {
  it("activates on checkout.session.completed and tells the paying admin", async () => {
    const { admin, member, organizationId, membershipId } = await organisationWithMember();
    const response = await deliver(
      checkoutCompleted({ organizationId, memberUserId: member.id, adminUserId: admin.id }, "sub_a"),
    );
    expect(response.status).toBe(200);
    expect(await subscriptionOf(membershipId)).toEqual({ status: "active", subscriptionId: "sub_a", payer: admin.id });
    expect(await notificationsOf(admin.id, "Subscription active")).toBe(1);
  });

  it("answers 400 to a bad signature and changes nothing", async () => {
    const { admin, member, organizationId, membershipId } = await organisationWithMember();
    const event = checkoutCompleted({ organizationId, memberUserId: member.id, adminUserId: admin.id }, "sub_b");
    expect((await deliver(event, { secret: "whsec_someone_else" })).status).toBe(400);
    expect((await postWebhook(JSON.stringify(event), "t=1,v1=deadbeef")).status).toBe(400);
    expect((await postWebhook(JSON.stringify(event), "")).status).toBe(400);
    expect((await subscriptionOf(membershipId))?.status).toBe("inactive");
    expect(await countRows("select count(*) as n from processed_stripe_events where id = ?", event.id)).toBe(0);
  });

  it("answers 400 to a stale timestamp (older than five minutes)", async () => {
    const { admin, member, organizationId, membershipId } = await organisationWithMember();
    const event = checkoutCompleted({ organizationId, memberUserId: member.id, adminUserId: admin.id }, "sub_c");
    expect((await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 600 })).status).toBe(400);
    expect((await subscriptionOf(membershipId))?.status).toBe("inactive");
  });

  it("applies a redelivered event once: one change, one notification", async () => {
    const { admin, member, organizationId, membershipId } = await organisationWithMember();
    const event = checkoutCompleted({ organizationId, memberUserId: member.id, adminUserId: admin.id }, "sub_d");
    expect(await (await deliver(event)).json()).toMatchObject({ outcome: "applied" });
    // Meanwhile the admin cancels; a redelivery of the old activation must not undo that.
    await postForm("/dashboard", { intent: "cancel-subscription", membershipId }, { cookie: admin.cookie });
    const again = await deliver(event);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ outcome: "duplicate" });
    expect((await subscriptionOf(membershipId))?.status).toBe("inactive");
    expect(await notificationsOf(admin.id, "Subscription active")).toBe(1);
  });

  it("tolerates out-of-order delivery: an older event never overrides a newer one", async () => {
    const { admin, member, organizationId, membershipId } = await organisationWithMember();
    const metadata = { organizationId, memberUserId: member.id, adminUserId: admin.id };
    const completed = checkoutCompleted(metadata, "sub_e");
    const updated = subscriptionEvent("updated", "sub_e", "active", metadata);
    const deleted = subscriptionEvent("deleted", "sub_e", "canceled", metadata);

    // The end arrives first, then the older start and update.
    expect((await deliver(deleted)).status).toBe(200);
    expect((await deliver(completed)).status).toBe(200);
    expect((await deliver(updated)).status).toBe(200);
    expect((await subscriptionOf(membershipId))?.status).toBe("inactive");
    expect(await notificationsOf(admin.id, "Subscription active")).toBe(0);

    // A new subscription later on is applied.
    expect((await deliver(subscriptionEvent("updated", "sub_f", "active", metadata))).status).toBe(200);
    expect(await subscriptionOf(membershipId)).toEqual({ status: "active", subscriptionId: "sub_f", payer: admin.id });
  });

  it("an update to past_due and a failed invoice both make the subscription inactive", async () => {
    const { admin, member, organizationId, membershipId } = await organisationWithMember();
    const metadata = { organizationId, memberUserId: member.id, adminUserId: admin.id };
    await deliver(checkoutCompleted(metadata, "sub_g"));
    await deliver(
      stripeEvent("invoice.payment_failed", {
        object: "invoice",
        customer: "cus_1",
        parent: { type: "subscription_details", subscription_details: { subscription: "sub_g", metadata } },
      }),
    );
    expect((await subscriptionOf(membershipId))?.status).toBe("inactive");
    expect(await notificationsOf(admin.id, "Subscription payment failed")).toBe(1);
    await deliver(subscriptionEvent("updated", "sub_g", "active", metadata));
    expect((await subscriptionOf(membershipId))?.status).toBe("active");
    await deliver(subscriptionEvent("updated", "sub_g", "past_due", metadata));
    expect((await subscriptionOf(membershipId))?.status).toBe("inactive");
  });

  it("answers 200 to an event for an unknown member, records it and changes nothing", async () => {
    const { admin, organizationId, membershipId } = await organisationWithMember();
    const stranger = crypto.randomUUID();
    const event = checkoutCompleted({ organizationId, memberUserId: stranger, adminUserId: admin.id }, "sub_h");
    const response = await deliver(event);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ outcome: "unknown-member" });
    expect(await countRows("select count(*) as n from processed_stripe_events where id = ?", event.id)).toBe(1);
    expect(
      await countRows(
        "select count(*) as n from organization_members where subscription_status = 'active' and organization_id = ?",
        organizationId,
      ),
    ).toBe(0);
    expect((await subscriptionOf(membershipId))?.status).toBe("inactive");
  });
});

describe("removing a subscribed member", () => {
  it("cancels the Stripe subscription before the membership goes", async () => {
    const { admin, member, organizationId, membershipId } = await organisationWithMember();
    await deliver(checkoutCompleted({ organizationId, memberUserId: member.id, adminUserId: admin.id }, "sub_removed"));
    expect((await subscriptionOf(membershipId))?.status).toBe("active");

    const stripeApiBase = inject("stripeApiBase");
    const context = contextWith({ STRIPE_SECRET_KEY: "sk_test_fake", STRIPE_API_BASE: stripeApiBase });
    await rejectOrRemove(context, admin.id, membershipId, "remove");
    const requests = (await (await fetch(`${stripeApiBase}/__requests`)).json()) as { method: string; path: string }[];
    expect(requests).toContainEqual(
      expect.objectContaining({ method: "DELETE", path: "/v1/subscriptions/sub_removed" }),
    );
    expect(await subscriptionOf(membershipId)).toBeNull();
  });
});
