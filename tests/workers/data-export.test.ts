import { env, SELF } from "cloudflare:test";
import { strFromU8, unzipSync } from "fflate";
import { validate as validateResume } from "@jsonresume/schema";
import { describe, expect, it } from "vitest";
import { createAccount, exportOf, get, ORIGIN, PNG_BYTES, postForm, toastFrom, unzip } from "./helpers.ts";
import { addMember, addSelfAchievement, createOrganisation, giveAchievement, uniqueName } from "./factories.ts";
import { today } from "#tests/today.ts";

// "Download my data" (a ZIP of every row and file of the person) and the résumé file, as the
// person downloads them from Settings.

/** An organisation, its admin, and two members who each get something from it. */
async function world() {
  const { admin, organizationId } = await createOrganisation({ adminName: "Ada Admin", name: uniqueName("Exporters") });
  const rex = await addMember(organizationId, { name: "Rex Recipient" });
  const olga = await addMember(organizationId, { name: "Olga Other" });
  const give = (userId: string, title: string, type = "award") =>
    giveAchievement(admin.cookie, { userId, title, type, date: "2024-05-17" });
  const answer = async (cookie: string, userId: string, title: string, intent: "accept" | "reject") => {
    const row = await env.DB.prepare("select id from achievements where user_id = ? and title = ?")
      .bind(userId, title)
      .first<{ id: string }>();
    await postForm("/passport", { intent, achievementId: row!.id }, { cookie });
  };
  await give(rex.id, "Star of the Month");
  await give(rex.id, "Forklift Licence", "training");
  await give(rex.id, "Ten Years", "milestone");
  await give(rex.id, "Declined Honour");
  await give(rex.id, "Still Pending");
  await give(olga.id, "Olga's Secret Award");
  for (const title of ["Star of the Month", "Forklift Licence", "Ten Years"])
    await answer(rex.cookie, rex.id, title, "accept");
  await answer(rex.cookie, rex.id, "Declined Honour", "reject");
  await addSelfAchievement(rex.cookie, { title: "Marathon", company: "City Run", date: today(), type: "milestone" });
  await postForm(
    "/settings?index",
    { intent: "send-feedback", message: "Rex likes it", rating: "5" },
    { cookie: rex.cookie },
  );
  await postForm(
    "/settings?index",
    { intent: "send-feedback", message: "Olga's private feedback" },
    { cookie: olga.cookie },
  );
  // Their own files: an avatar for each, and an image on one of Rex's achievements.
  for (const person of [rex, olga]) {
    await env.MEDIA.put(`avatars/${person.id}/avatar.png`, PNG_BYTES);
    await env.DB.prepare("update profiles set avatar_url = ? where id = ?")
      .bind(`/media/avatars/${person.id}/avatar.png?v=1`, person.id)
      .run();
  }
  await env.MEDIA.put(`achievement-images/${organizationId}/star.png`, PNG_BYTES);
  await env.DB.prepare("update achievements set image_url = ? where user_id = ? and title = 'Star of the Month'")
    .bind(`/media/achievement-images/${organizationId}/star.png`, rex.id)
    .run();
  return { admin, rex, olga, organizationId };
}

type Resume = {
  basics: Record<string, string>;
  awards: Record<string, string>[];
  certificates: Record<string, string>[];
  work: Record<string, string>[];
};

describe("download my data", () => {
  it("is one ZIP with every kind of row of the person, their media and résumé, and nobody else's data", async () => {
    const { admin, rex, olga, organizationId } = await world();
    const response = await exportOf(rex.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/zip");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="career-passport-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(response.headers.get("Cache-Control")).toContain("no-store");
    const { files, json } = await unzip(response);

    const credentialFiles = Object.keys(files).filter((name) => name.startsWith("credentials/"));
    expect(Object.keys(files).sort()).toEqual(
      [
        "data.json",
        "resume.json",
        `media/avatars/${rex.id}/avatar.png`,
        `media/achievement-images/${organizationId}/star.png`,
        ...credentialFiles,
      ].sort(),
    );
    // The signed credential of each accepted organisation achievement, byte for byte as issued.
    const { results: issued } = await env.DB.prepare("select id, json from credentials where user_id = ?")
      .bind(rex.id)
      .all<{ id: string; json: string }>();
    // Three achievements' and the membership's (decision 070).
    expect(issued).toHaveLength(4);
    expect(credentialFiles.sort()).toEqual(issued.map(({ id }) => `credentials/${id}.json`).sort());
    for (const { id, json } of issued) expect(strFromU8(files[`credentials/${id}.json`]!)).toBe(json);
    expect(credentialFiles.map((name) => json(name).credentialSubject.achievement.name as string).sort()).toEqual([
      "Forklift Licence",
      expect.stringMatching(/^Member of Exporters/),
      "Star of the Month",
      "Ten Years",
    ]);
    expect([...files[`media/avatars/${rex.id}/avatar.png`]!]).toEqual([...PNG_BYTES]);

    const data = json("data.json");
    expect(data.profile).toMatchObject({
      id: rex.id,
      email: rex.email,
      fullName: "Rex Recipient",
      avatar: `media/avatars/${rex.id}/avatar.png`,
      searchIndexing: true,
      recognitionEmails: true,
    });
    expect(data.profile.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const statusOf = Object.fromEntries(
      data.achievementsReceived.map((row: { title: string; status: string }) => [row.title, row.status]),
    );
    expect(statusOf).toEqual({
      "Star of the Month": "accepted",
      "Forklift Licence": "accepted",
      "Ten Years": "accepted",
      "Declined Honour": "rejected",
      "Still Pending": "pending",
      "Marathon - City Run": "accepted",
      [`Member of ${data.memberships[0].organizationName}`]: "accepted",
    });
    expect(data.membershipHistory).toEqual([
      expect.objectContaining({ organizationId, from: today(), to: null, shownOnPassport: true, role: "member" }),
    ]);
    expect(data.achievementsReceived.find((row: { title: string }) => row.title === "Star of the Month")).toMatchObject(
      {
        organizationName: expect.stringContaining("Exporters"),
        isVisible: true,
        image: `media/achievement-images/${organizationId}/star.png`,
      },
    );
    expect(data.memberships).toEqual([
      expect.objectContaining({ organizationId, status: "approved", approvedAt: expect.stringMatching(/Z$/) }),
    ]);
    expect(data.notifications.length).toBeGreaterThanOrEqual(5);
    expect(data.notifications).toContainEqual(expect.objectContaining({ title: "New achievement", read: false }));
    expect(data.feedback).toEqual([expect.objectContaining({ message: "Rex likes it", rating: 5 })]);
    expect(data.achievementsGiven).toEqual([]);

    // Nothing of anyone else: no other address, no other person's rows or files.
    const everything = Object.values(files)
      .map((bytes) => strFromU8(bytes, true))
      .join("\n");
    for (const secret of [admin.email, olga.email, "Olga's Secret Award", "Olga's private feedback", olga.id]) {
      expect(everything).not.toContain(secret);
    }
  });

  it("an admin's export lists what they gave, with the recipient by name but never their e-mail", async () => {
    const { admin, rex } = await world();
    const { json, files } = await unzip(await exportOf(admin.cookie));
    const given = json("data.json").achievementsGiven;
    expect(given).toHaveLength(6);
    expect(given).toContainEqual(
      expect.objectContaining({ title: "Star of the Month", recipientName: "Rex Recipient" }),
    );
    expect(json("data.json").organisationRoles).toEqual([expect.objectContaining({ role: "admin" })]);
    const everything = Object.values(files)
      .map((bytes) => strFromU8(bytes, true))
      .join("\n");
    expect(everything).not.toContain(rex.email);
    expect(everything).not.toContain("Rex likes it");
  });

  it("streams a large export in pieces instead of building it whole", async () => {
    const person = await createAccount({ name: "Big Files" });
    // 6 files of 512 KiB each behind the person's achievements: 3 MiB of media, each file larger
    // than any piece the archive is sent in. (Larger bodies made workerd's isolated-storage
    // connection drop under load in the Workers pool: at 6 MiB, once in a fresh-clone CI run.)
    const fileBytes = 512 * 1024;
    const chunk = new Uint8Array(fileBytes).map((_, index) => index % 251);
    for (let index = 0; index < 6; index++) {
      await postForm(
        "/passport",
        {
          intent: "add-self-achievement",
          formId: "self",
          title: `Big ${index}`,
          company: "Files",
          date: today(),
          type: "award",
        },
        { cookie: person.cookie },
      );
      const key = `achievement-images/self-achievements/${person.id}/big-${index}.bin`;
      await env.MEDIA.put(key, chunk);
      await env.DB.prepare("update achievements set image_url = ? where user_id = ? and title = ?")
        .bind(`/media/${key}`, person.id, `Big ${index} - Files`)
        .run();
    }
    const response = await exportOf(person.cookie);
    expect(response.status).toBe(200);
    // No length up front: the archive is produced while it is sent.
    expect(response.headers.get("Content-Length")).toBeNull();
    const reader = response.body!.getReader();
    const pieces: Uint8Array[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      pieces.push(value);
    }
    expect(pieces.length).toBeGreaterThan(6);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(fileBytes);
    const archive = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
    pieces.reduce((offset, piece) => (archive.set(piece, offset), offset + piece.length), 0);
    const files = unzipSync(archive);
    for (let index = 0; index < 6; index++) {
      const file = files[`media/achievement-images/self-achievements/${person.id}/big-${index}.bin`]!;
      expect(file.length).toBe(chunk.length);
      expect(file[1000]).toBe(1000 % 251);
    }
  });

  it("allows 3 downloads an hour per person, then explains why it refuses", async () => {
    const person = await createAccount();
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await exportOf(person.cookie);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    const refused = await exportOf(person.cookie);
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toBe("/settings/data");
    expect(toastFrom(refused)).toMatchObject({ title: "Too many downloads", variant: "destructive" });
    // Someone else is not held back by it.
    expect((await exportOf((await createAccount()).cookie)).status).toBe(200);
  });

  it("is only for the signed-in person, and only from this site", async () => {
    const signedOut = await postForm("/settings/export", {});
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
    const person = await createAccount();
    const crossSite = await SELF.fetch(`${ORIGIN}/settings/export`, {
      method: "POST",
      headers: {
        Cookie: person.cookie,
        Origin: "https://evil.example",
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "",
      redirect: "manual",
    });
    expect(crossSite.status).toBe(403);
  });
});

describe("resume.json", () => {
  it("validates against the published JSON Resume schema and holds the accepted, visible achievements", async () => {
    const { rex, organizationId } = await world();
    const response = await get("/settings/resume.json", rex.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="resume.json"');
    const resume = (await response.json()) as Resume;
    const errors = await new Promise((resolve) => validateResume(resume, (error: unknown) => resolve(error)));
    expect(errors).toBeNull();

    expect(resume.basics).toMatchObject({
      name: "Rex Recipient",
      email: rex.email,
      url: `${ORIGIN}/passport/${rex.id}`,
      image: `${ORIGIN}/media/avatars/${rex.id}/avatar.png?v=1`,
    });
    const organisation = expect.stringContaining("Exporters");
    expect(resume.awards).toEqual(
      expect.arrayContaining([
        { title: "Star of the Month", date: "2024-05-17", awarder: organisation },
        { title: "Ten Years", date: "2024-05-17", awarder: organisation },
        { title: "Marathon - City Run", date: today() },
      ]),
    );
    expect(resume.awards).toHaveLength(3);
    expect(resume.certificates).toEqual([
      { name: "Forklift Licence", date: "2024-05-17", issuer: organisation, url: `${ORIGIN}/passport/${rex.id}` },
    ]);
    expect(resume.work).toEqual([{ name: organisation, startDate: today() }]);
    expect(JSON.stringify(resume)).not.toContain("Declined Honour");
    expect(JSON.stringify(resume)).not.toContain("Still Pending");
    expect(organizationId).toBeTruthy();

    // The same file is in the export.
    const { json } = await unzip(await exportOf(rex.cookie));
    expect(json("resume.json").awards).toEqual(resume.awards);
  });

  it("leaves out an achievement whose credential was revoked, as the public passport does", async () => {
    const { admin, rex } = await world();
    const credential = await env.DB.prepare(
      "select c.id from credentials c join achievements a on a.id = c.achievement_id where a.title = 'Star of the Month' and a.user_id = ?",
    )
      .bind(rex.id)
      .first<{ id: string }>();
    const revoked = await postForm(
      "/dashboard/achievements",
      { intent: "revoke", credentialId: credential!.id },
      { cookie: admin.cookie },
    );
    expect(revoked.status).toBe(302);
    const resume = (await (await get("/settings/resume.json", rex.cookie)).json()) as Resume;
    expect(resume.awards.map((award) => award.title).sort()).toEqual(["Marathon - City Run", "Ten Years"]);
    expect(JSON.stringify(resume)).not.toContain("Star of the Month");
    const passport = await (await get(`/passport/${rex.id}`)).text();
    expect(passport).not.toContain("Star of the Month");
    expect(passport).toContain("Ten Years");
    // The export's résumé is the same; its data.json still lists the achievement, marked revoked.
    const { json } = await unzip(await exportOf(rex.cookie));
    expect(json("resume.json").awards).toEqual(resume.awards);
    expect(
      json("data.json").achievementsReceived.find((row: { title: string }) => row.title === "Star of the Month"),
    ).toMatchObject({ credentialRevokedAt: expect.stringMatching(/Z$/) });
  });

  it("leaves the passport link out of a private passport's résumé, and is only for the signed-in person", async () => {
    const person = await createAccount({ name: "Pat Private" });
    await postForm(
      "/settings?index",
      { intent: "update-profile", fullName: "Pat Private", bio: "Quiet." },
      { cookie: person.cookie },
    );
    const resume = (await (await get("/settings/resume.json", person.cookie)).json()) as Resume;
    expect(resume.basics).toEqual({ name: "Pat Private", email: person.email, summary: "Quiet." });
    const signedOut = await get("/settings/resume.json");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/auth/);
  });
});
