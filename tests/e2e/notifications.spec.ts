import { request as apiRequest, type Page } from "@playwright/test";
import { PASSWORD, newAccount, uniqueEmail, confirmationLink, createOrganisation, uniqueName } from "./accounts.ts";
import { expect, test, toast } from "./fixtures.ts";

const bell = (page: Page) => page.getByRole("button", { name: /^Notifications/ });
const badge = (page: Page) => page.getByTestId("unread-badge");

async function openDashboardLive(page: Page) {
  await page.goto("/dashboard");
  await expect(bell(page)).toHaveAttribute("data-live", "true");
}

test("an admin's approval reaches both of the member's tabs live, and no one else's", async ({
  page: admin,
  newPersonPage,
}) => {
  const { name, organizationId } = await createOrganisation(admin, {
    adminName: "Avery Admin",
    name: uniqueName("Live"),
  });

  const memberTab = await newPersonPage();
  const { email } = await newAccount(memberTab, { name: "Mina Member" });
  const memberOtherTab = await newPersonPage();
  expect(
    (await memberOtherTab.request.post("/auth", { form: { intent: "signin", email, password: PASSWORD } })).ok(),
  ).toBe(true);
  const stranger = await newPersonPage();
  await newAccount(stranger, { name: "Sol Stranger" });

  await memberTab.request.post("/dashboard", { form: { intent: "request-join", organizationId } });
  for (const page of [memberTab, memberOtherTab, stranger]) await openDashboardLive(page);

  await admin.reload();
  await admin.getByRole("button", { name: "Approve Mina Member" }).click();
  await expect(toast(admin, "Member approved")).toBeVisible();

  for (const tab of [memberTab, memberOtherTab]) {
    await expect(toast(tab, "Request approved")).toContainText(`You are now a member of ${name}.`);
    await expect(badge(tab)).toHaveText("1");
  }
  await expect(badge(stranger)).toHaveCount(0);

  // Mark all read in one tab clears the badge in both.
  await bell(memberTab).click();
  await expect(memberTab.getByRole("dialog").getByText("Request approved")).toBeVisible();
  await memberTab.getByRole("button", { name: "Mark all read" }).click();
  await expect(badge(memberTab)).toHaveCount(0);
  await expect(badge(memberOtherTab)).toHaveCount(0);
});

test("the badge shows 9+ above nine, and clicking an item marks it read", async ({ page: admin, baseURL }) => {
  const { organizationId } = await createOrganisation(admin, { adminName: "Nova Admin", name: uniqueName("Busy") });

  // Ten people ask to join, each a client of their own.
  for (let person = 0; person < 10; person++) {
    const client = await apiRequest.newContext({
      baseURL,
      extraHTTPHeaders: { "cf-connecting-ip": `2001:db8:${crypto.randomUUID().slice(0, 4)}::1` },
    });
    const email = uniqueEmail("asker");
    await client.post("/auth?mode=personal", {
      form: { intent: "signup", name: `Asker ${person}`, email, password: PASSWORD },
    });
    const token = new URL(await confirmationLink(client, email), "http://x").searchParams.get("token")!;
    await client.post("/auth/confirm", { form: { token } });
    await client.post("/dashboard", { form: { intent: "request-join", organizationId } });
    await client.dispose();
  }

  await admin.reload();
  await expect(badge(admin)).toHaveText("9+");
  await bell(admin).click();
  const list = admin.getByRole("list", { name: "Notification list" });
  await expect(list.getByRole("listitem")).toHaveCount(10);
  await list.getByRole("button", { name: /Asker 9 asked to join/ }).click();
  await expect(badge(admin)).toHaveText("9");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the bell is a link to a page that lists and marks all read", async ({ page: admin, secondPage: person }) => {
    const { organizationId } = await createOrganisation(admin, { adminName: "Quinn Admin", name: uniqueName("Quiet") });
    await newAccount(person, { name: "Pia Person" });
    await person.request.post("/dashboard", { form: { intent: "request-join", organizationId } });

    await admin.goto("/dashboard");
    await admin.getByRole("link", { name: "Notifications, 1 unread" }).click();
    await expect(admin).toHaveURL("/notifications");
    await expect(admin.getByRole("heading", { name: "Notifications" })).toBeVisible();
    await expect(admin.getByText("Pia Person asked to join")).toBeVisible();
    await admin.getByRole("button", { name: "Mark all read" }).click();
    await expect(admin.getByRole("link", { name: "Notifications", exact: true })).toBeVisible();
  });
});
