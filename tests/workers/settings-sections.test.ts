import { describe, expect, it } from "vitest";
import { countRows, createAccount, get, PASSWORD, postForm } from "./helpers.ts";

// Settings as nested routes (issue 42, docs/decisions/080): each section its own page, loader and
// intents. One runtime for the sections' rules; what each intent does is tested with its feature.

const SECTIONS = [
  { path: "/settings", heading: "Profile Settings" },
  { path: "/settings/security", heading: "Change Password" },
  { path: "/settings/addresses", heading: "Other e-mail addresses" },
  { path: "/settings/sessions", heading: "Sessions" },
  { path: "/settings/data", heading: "Your Data" },
  { path: "/settings/danger", heading: "Danger Zone" },
];

describe("settings sections", () => {
  it.each(SECTIONS)("$path shows its own section to its owner, with the sections' navigation", async (section) => {
    const person = await createAccount();
    const response = await get(section.path, person.cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(new RegExp(`<h2[^>]*>${section.heading}</h2>`));
    // The current section is the one link of the sections' navigation marked as the page.
    const nav = /<nav aria-label="Settings sections">.*?<\/nav>/s.exec(html)?.[0] ?? "";
    const links = [...nav.matchAll(/<a [^>]*>/g)].map(([tag]) => tag);
    expect(links).toHaveLength(6);
    expect(
      links.filter((tag) => tag.includes('aria-current="page"')).map((tag) => /href="([^"]+)"/.exec(tag)?.[1]),
    ).toEqual([section.path]);
  });

  it.each(SECTIONS)("$path sends a signed-out visitor to sign in, and back", async ({ path }) => {
    const response = await get(path);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`);
  });

  it("shows no section of another's: sessions, addresses and keys are read for the viewer only", async () => {
    const owner = await createAccount();
    await postForm("/settings/addresses", { intent: "add-other-address", address: "owner-other@example.com" }, owner);
    const stranger = await createAccount();
    expect(await (await get("/settings/addresses", stranger.cookie)).text()).not.toContain("owner-other@example.com");
  });

  it.each([
    [
      "/settings/addresses",
      {
        intent: "change-password",
        currentPassword: PASSWORD,
        newPassword: "x-y-z-12345",
        confirmPassword: "x-y-z-12345",
      },
    ],
    ["/settings/security", { intent: "archive" }],
    ["/settings/danger", { intent: "update-profile", fullName: "Elsewhere", bio: "" }],
    ["/settings/sessions", { intent: "forget-holder-key", did: "did:key:z6Mk" }],
    // /settings itself (not the profile's ?index) takes only the archived notice's forms.
    ["/settings", { intent: "update-profile", fullName: "Elsewhere", bio: "" }],
    ["/settings?index", { intent: "purge", password: PASSWORD }],
  ])("%s refuses an intent of another section (400), doing nothing", async (path, fields) => {
    const person = await createAccount({ name: "Stays Put" });
    const response = await postForm(path, fields, { cookie: person.cookie });
    expect(response.status).toBe(400);
    expect(
      await countRows(
        "select count(*) as n from profiles where id = ? and full_name = 'Stays Put' and deleted_at is null",
        person.id,
      ),
    ).toBe(1);
  });

  it("after a success goes back to the section the form came from", async () => {
    const person = await createAccount();
    const cases = [
      ["/settings?index", { intent: "update-preferences", recognitionEmails: "on" }, "/settings"],
      ["/settings/sessions", { intent: "sign-out-other-sessions" }, "/settings/sessions"],
      ["/settings/addresses", { intent: "add-other-address", address: "back-here@example.com" }, "/settings/addresses"],
    ] as const;
    for (const [path, fields, back] of cases) {
      const response = await postForm(path, fields, { cookie: person.cookie });
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).toBe(back);
    }
  });

  it("sends an archived account back to /settings from a section's form, nothing done", async () => {
    const person = await createAccount({ name: "Archie Ved" });
    expect((await postForm("/settings/danger", { intent: "archive" }, { cookie: person.cookie })).status).toBe(302);
    const response = await postForm(
      "/settings?index",
      { intent: "update-profile", fullName: "Renamed", bio: "" },
      person,
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/settings");
    expect(
      await countRows("select count(*) as n from profiles where id = ? and full_name = 'Archie Ved'", person.id),
    ).toBe(1);
    expect(await (await get("/settings", person.cookie)).text()).toContain("Account Archived");
  });
});
