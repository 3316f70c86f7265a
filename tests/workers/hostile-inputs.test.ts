import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { escapeLikeReact, HOSTILE_INPUTS, outcomeFor, type HostileInput } from "#tests/hostile-inputs.ts";
import { createAccount, get, postForm, signUp, uniqueEmail } from "./helpers.ts";
import { createOrganisationWithMember } from "./factories.ts";
import { today } from "#tests/today.ts";

// Every hostile value through every text field that is stored and shown again: refused with the
// field's message, or stored exactly as typed (trimmed) and shown back escaped on every page
// where it appears. See docs/security.md, "Hostile input corpus".

type Rule = { label: string; required: string | null; tooLong: string; multiline: boolean };

const rules = {
  name: {
    label: "Name",
    required: "Name is required",
    tooLong: "Name must be less than 100 characters",
    multiline: false,
  },
  bio: { label: "Bio", required: null, tooLong: "Bio must be less than 1000 characters", multiline: true },
  title: {
    label: "Title",
    required: "Title is required",
    tooLong: "Title must be less than 200 characters",
    multiline: false,
  },
  description: {
    label: "Description",
    required: null,
    tooLong: "Description must be less than 1000 characters",
    multiline: true,
  },
  company: {
    label: "Company name",
    required: "Company/Organization is required",
    tooLong: "Company name must be less than 200 characters",
    multiline: false,
  },
  organizationName: {
    label: "Organisation name",
    required: "Please enter an organisation name",
    tooLong: "Organisation name must be less than 100 characters",
    multiline: false,
  },
  feedback: {
    label: "Feedback",
    required: "Feedback is required",
    tooLong: "Feedback must be less than 2000 characters",
    multiline: true,
  },
  search: {
    label: "Search term",
    required: "Search term cannot be empty",
    tooLong: "Search term must be less than 100 characters",
    multiline: false,
  },
} satisfies Record<string, Rule>;

/** What the field must answer: a message, or the value it stores (null: stores nothing). */
function expected(input: HostileInput, rule: Rule): { message: string } | { stored: string | null } {
  switch (outcomeFor(input, rule)) {
    case "too-long":
      return { message: rule.tooLong };
    case "control":
      return { message: `${rule.label} cannot contain control characters` };
    case "bidi":
      return { message: `${rule.label} cannot contain text direction override characters` };
    case "invisible":
      return rule.required ? { message: rule.required } : { stored: null };
    case "stored":
      return { stored: input.value.trim() };
  }
}

/** The value is in the page as React escapes it, and no markup of it got through raw. */
async function expectShown(path: string, cookie: string | undefined, value: string) {
  const response = await get(path, cookie);
  expect(response.status, path).toBe(200);
  const html = await response.text();
  expect(html, `${path} shows the value escaped`).toContain(escapeLikeReact(value));
  if (value.includes("<")) expect(html, `${path} has no raw markup of the value`).not.toContain(value);
  expect(html).not.toMatch(/<script>alert|<img src=x|<svg\/onload/);
}

async function expectRefused(response: Response, message: string) {
  expect(response.status).toBe(400);
  expect(await response.text()).toContain(escapeLikeReact(message));
}

/** Runs every corpus value through one field, with the value's name on any failure. */
async function eachInput(
  rule: Rule,
  run: (input: HostileInput, outcome: ReturnType<typeof expected>) => Promise<void>,
) {
  for (const input of HOSTILE_INPUTS) {
    try {
      await run(input, expected(input, rule));
    } catch (error) {
      throw new Error(`${rule.label} ← ${input.name}: ${(error as Error).message}`, { cause: error });
    }
  }
}

const one = <T>(sql: string, ...params: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...params)
    .first<T>();

// Each test runs the whole corpus through its fields, one request after another.
describe("hostile input corpus", { timeout: 300_000 }, () => {
  it("sign-up name: refused with the message or stored exactly, and shown escaped on the dashboard", async () => {
    await eachInput(rules.name, async (input, outcome) => {
      const email = uniqueEmail();
      const response = await signUp({ name: input.value, email });
      const row = await one<{ name: string }>(
        "select p.full_name as name from users u join profiles p on p.id = u.id where u.email = ?",
        email,
      );
      if ("message" in outcome) {
        await expectRefused(response, outcome.message);
        expect(row).toBeNull();
      } else {
        expect(response.status).toBe(302);
        expect(row?.name).toBe(outcome.stored);
      }
    });
    // One stored value all the way to the signed-in pages.
    const account = await createAccount({ name: '<script>alert("xss")</script>' });
    await expectShown("/dashboard", account.cookie, '<script>alert("xss")</script>');
  });

  it("settings full name and bio: shown on settings, the dashboard, the own and the public passport", async () => {
    const person = await createAccount();
    await eachInput(rules.name, async (input, outcome) => {
      const response = await postForm(
        "/settings?index",
        { intent: "update-profile", fullName: input.value, bio: "", isPublic: "on" },
        { cookie: person.cookie },
      );
      const row = await one<{ name: string }>("select full_name as name from profiles where id = ?", person.id);
      if ("message" in outcome) {
        await expectRefused(response, outcome.message);
        expect(row?.name).not.toBe(input.value);
      } else {
        expect(response.status).toBeLessThan(400);
        expect(row?.name).toBe(outcome.stored);
        for (const path of ["/settings", "/dashboard", "/passport", `/passport/${person.id}`])
          await expectShown(path, path.startsWith("/passport/") ? undefined : person.cookie, outcome.stored!);
      }
    });
    await eachInput(rules.bio, async (input, outcome) => {
      const response = await postForm(
        "/passport",
        { intent: "update-bio", bio: input.value },
        { cookie: person.cookie },
      );
      const row = await one<{ bio: string | null }>("select bio from profiles where id = ?", person.id);
      if ("message" in outcome) {
        await expectRefused(response, outcome.message);
      } else {
        expect(response.status).toBeLessThan(400);
        expect(row?.bio).toBe(outcome.stored);
        if (outcome.stored)
          for (const path of ["/passport", `/passport/${person.id}`])
            await expectShown(path, path === "/passport" ? person.cookie : undefined, outcome.stored);
      }
    });
  });

  // One test per field, each with a fresh person, so no passport grows past the corpus's size.
  it.each([
    ["title", rules.title],
    ["description", rules.description],
    ["company", rules.company],
  ] as const)("self achievement %s: shown on the own and the public passport", async (field, rule) => {
    const person = await createAccount({ name: "Sam Self" });
    const base = {
      intent: "add-self-achievement",
      formId: "self",
      title: "Plain title",
      company: "Plain company",
      date: today(),
      type: "award",
    };
    await eachInput(rule, async (input, outcome) => {
      const before = await one<{ n: number }>("select count(*) as n from achievements where user_id = ?", person.id);
      const response = await postForm("/passport", { ...base, [field]: input.value }, { cookie: person.cookie });
      const after = await one<{ n: number }>("select count(*) as n from achievements where user_id = ?", person.id);
      if ("message" in outcome) {
        await expectRefused(response, outcome.message);
        expect(after!.n).toBe(before!.n);
        return;
      }
      expect(response.status).toBeLessThan(400);
      expect(after!.n).toBe(before!.n + 1);
      // A self achievement is stored as "title - company".
      const column = field === "description" ? "description" : "title";
      const row = await one<{ value: string | null }>(
        `select ${column} as value from achievements where user_id = ? order by created_at desc, rowid desc limit 1`,
        person.id,
      );
      const stored = {
        title: `${outcome.stored} - Plain company`,
        company: `Plain title - ${outcome.stored}`,
        description: outcome.stored,
      }[field];
      expect(row?.value).toBe(stored);
      if (outcome.stored)
        for (const path of ["/passport", `/passport/${person.id}`])
          await expectShown(path, path === "/passport" ? person.cookie : undefined, outcome.stored);
    });
  });

  it("given achievement title and description: shown to the recipient", async () => {
    const { admin, member } = await createOrganisationWithMember({
      adminName: "Gia Giver",
      memberName: "Rex Recipient",
      name: "Givers",
    });
    const base = {
      intent: "give-achievement",
      formId: "give",
      userId: member.id,
      type: "award",
      date: today(),
      title: "Plain title",
    };
    for (const [field, rule] of [
      ["title", rules.title],
      ["description", rules.description],
    ] as const) {
      await eachInput(rule, async (input, outcome) => {
        const response = await postForm("/dashboard", { ...base, [field]: input.value }, { cookie: admin.cookie });
        if ("message" in outcome) return expectRefused(response, outcome.message);
        expect(response.status).toBeLessThan(400);
        const row = await one<{ value: string | null }>(
          `select ${field} as value from achievements where user_id = ? order by created_at desc, rowid desc limit 1`,
          member.id,
        );
        expect(row?.value).toBe(outcome.stored);
        if (outcome.stored) await expectShown("/passport", member.cookie, outcome.stored);
      });
    }
  });

  it("organisation name and description (create and sign-up): found by search and shown escaped", async () => {
    // Only an organisation-type account creates organisations.
    const founder = await createAccount({ name: "Fay Founder", organizationName: "First Org" });
    const searcher = await createAccount({ name: "Sid Searcher" });
    for (const [field, rule] of [
      ["name", rules.organizationName],
      ["description", rules.description],
    ] as const) {
      await eachInput(rule, async (input, outcome) => {
        const marker = `Org ${crypto.randomUUID().slice(0, 8)}`;
        const fields =
          field === "name" ? { name: input.value, description: "Plain" } : { name: marker, description: input.value };
        const response = await postForm(
          "/dashboard",
          { intent: "create-organization", ...fields },
          { cookie: founder.cookie },
        );
        const row = await one<{ value: string | null }>(
          `select o.${field} as value from organizations o join organization_roles r on r.organization_id = o.id
           where r.user_id = ? ${field === "name" ? "" : "and o.name = ?"} order by o.created_at desc, o.rowid desc limit 1`,
          ...(field === "name" ? [founder.id] : [founder.id, marker]),
        );
        if ("message" in outcome) {
          await expectRefused(response, outcome.message);
          if (field === "description") expect(row).toBeNull();
          else expect(row?.value).not.toBe(input.value);
          return;
        }
        expect(response.status).toBeLessThan(400);
        expect(row?.value).toBe(outcome.stored);
        const term = field === "name" ? outcome.stored! : marker;
        if (outcome.stored)
          await expectShown(`/dashboard?q=${encodeURIComponent(term)}`, searcher.cookie, outcome.stored);
      });
    }
    // The organisation sign-up uses the same rules (the organisation waits for the confirmation).
    await eachInput(rules.organizationName, async (input, outcome) => {
      const email = uniqueEmail("org");
      const response = await signUp({ email, organizationName: input.value });
      const row = await one<{ name: string }>(
        "select s.organization_name as name from pending_organization_setups s join users u on u.id = s.user_id where u.email = ?",
        email,
      );
      if ("message" in outcome) {
        await expectRefused(response, outcome.message);
        expect(row).toBeNull();
      } else {
        expect(row?.name).toBe(outcome.stored);
      }
    });
  });

  it("beta feedback: refused with the message or stored exactly", async () => {
    const person = await createAccount();
    await eachInput(rules.feedback, async (input, outcome) => {
      const response = await postForm(
        "/settings?index",
        { intent: "send-feedback", message: input.value, rating: "4" },
        { cookie: person.cookie },
      );
      const row = await one<{ message: string }>(
        "select message from beta_feedback where user_id = ? order by rowid desc limit 1",
        person.id,
      );
      if ("message" in outcome) {
        await expectRefused(response, outcome.message);
        expect(row?.message).not.toBe(input.value);
      } else {
        expect(response.status).toBeLessThan(400);
        expect(row?.message).toBe(outcome.stored);
      }
    });
  });

  it("organisation search: refused with the message or echoed escaped", async () => {
    // With an organisation to compare against, so the match runs on a row (D1 refused LIKE
    // patterns over 50 bytes only when it had a row to compare: a 500 for longer searches).
    await createAccount({ organizationName: "Some Organisation" });
    const person = await createAccount();
    for (const term of ["s".repeat(100), "é".repeat(100), "👩🏽‍💻".repeat(14)]) {
      expect(
        (await get(`/dashboard?q=${encodeURIComponent(term)}`, person.cookie)).status,
        `a search of ${term.length} characters`,
      ).toBe(200);
    }
    await eachInput(rules.search, async (input, outcome) => {
      const response = await get(`/dashboard?q=${encodeURIComponent(input.value)}`, person.cookie);
      expect(response.status).toBe(200);
      const html = await response.text();
      if ("message" in outcome) {
        expect(html).toContain(escapeLikeReact(outcome.message));
      } else {
        expect(html).toContain(escapeLikeReact(`No organisations found matching '${outcome.stored}'`));
        if (input.value.includes("<")) expect(html).not.toContain(input.value);
      }
    });
  });
});

describe("image and video URL fields accept only https links", { timeout: 60_000 }, () => {
  const refused = [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+",
    "data:text/html,<script>alert(1)</script>",
    "http://example.com/picture.png",
    "//example.com/picture.png",
    "/media/achievement-images/someone-else.png",
    "https:example.com/picture.png",
    "https:/example.com/picture.png",
    "https:///example.com",
    "https://user:secret@example.com/picture.png",
    "https://example.com/\u0000.png",
    "https://exa\u202Emple.com/picture.png",
    "vbscript:msgbox(1)",
    "ftp://example.com/picture.png",
    `https://example.com/${"a".repeat(2000)}`,
  ];
  it("refuses javascript:, data:, http:, protocol-relative, relative and malformed links, storing nothing", async () => {
    const person = await createAccount();
    for (const mediaUrl of refused) {
      const response = await postForm(
        "/passport",
        {
          intent: "add-self-achievement",
          formId: "self",
          title: "Linked",
          company: "Acme",
          date: today(),
          type: "award",
          mediaUrl,
        },
        { cookie: person.cookie },
      );
      const message =
        mediaUrl.length > 2000
          ? "Image or video URL must be less than 2000 characters"
          : "Image or video URL must be an https:// link";
      await expectRefused(response, message).catch((error) => {
        throw new Error(`${JSON.stringify(mediaUrl)}: ${error.message}`);
      });
    }
    expect(await one("select id from achievements where user_id = ?", person.id)).toBeNull();
  });

  it("stores an https link in its normalised form", async () => {
    const person = await createAccount();
    await postForm(
      "/passport",
      {
        intent: "add-self-achievement",
        formId: "self",
        title: "Linked",
        company: "Acme",
        date: today(),
        type: "award",
        mediaUrl: ' HTTPS://Example.com/a b/"x".png ',
      },
      { cookie: person.cookie },
    );
    const row = await one<{ image: string }>(
      "select image_url as image from achievements where user_id = ?",
      person.id,
    );
    expect(row?.image).toBe("https://example.com/a%20b/%22x%22.png");
  });
});
