import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readLinkedInCsv } from "#app/services/history-import/linkedin.ts";
import { historyDate } from "#app/services/history-import/dates.ts";
import { RATE_LIMIT_MESSAGE, RATE_LIMITS } from "#app/utils/rate-limit.server.ts";
import { HISTORY_ENTRIES_MAX } from "#db/queries/achievements/writes.ts";
import { createAccount, get, postForm, toastFrom } from "./helpers.ts";
import {
  PATH,
  addHistory,
  csvFile,
  jsonResumeFile,
  linkedInZip,
  readHistory,
  reviewOf,
  type ReviewEntry,
} from "./history-import-helpers.ts";

const achievementsOf = (userId: string) =>
  env.DB.prepare(
    `select title, description, date, type, status, is_visible as visible, organization_id as org
     from achievements where user_id = ? order by date desc, title`,
  )
    .bind(userId)
    .all<{
      title: string;
      description: string | null;
      date: string;
      type: string;
      status: string;
      visible: number;
      org: string | null;
    }>()
    .then((result) => result.results);

const summary = (entries: ReviewEntry[]) =>
  entries.map(({ title, company, date, type, selected, problem }) => ({
    title,
    company,
    date,
    type,
    selected,
    problem,
  }));

describe("importing a LinkedIn export", () => {
  it("reads the export's ZIP into a review list: each entry proposed, those that break a rule unticked with why", async () => {
    const person = await createAccount();
    const response = await readHistory(person.cookie, [linkedInZip()]);
    expect(response.status).toBe(200);
    const html = await response.clone().text();
    const entries = await reviewOf(response);
    expect(summary(entries)).toEqual([
      {
        title: "Head of Platform",
        company: "Northwind Traders",
        date: "2019-03-01",
        type: "milestone",
        selected: true,
        problem: null,
      },
      {
        title: "Engineer, Payments",
        company: "Contoso",
        date: "2015-01-01",
        type: "milestone",
        selected: true,
        problem: null,
      },
      {
        title: "Certified Kubernetes Administrator",
        company: "Cloud Native Computing Foundation",
        date: "2021-06-01",
        type: "training",
        selected: true,
        problem: null,
      },
      {
        title: "Certified Time Traveller",
        company: "Acme Academy",
        date: "2099-01-01",
        type: "training",
        selected: false,
        problem: "Date cannot be in the future",
      },
      // LinkedIn's honours and courses name no issuer: the person names it.
      {
        title: "Hackathon winner",
        company: "",
        date: "2018-11-01",
        type: "award",
        selected: false,
        problem: "Company/Organization is required",
      },
      {
        title: "Distributed Systems",
        company: "",
        date: "",
        type: "training",
        selected: false,
        problem: "Company/Organization is required",
      },
      {
        title: "MSc Computer Science",
        company: "University of Lisbon",
        date: "2014-01-01",
        type: "training",
        selected: true,
        problem: null,
      },
    ]);
    // A description over several lines, and doubled quotes, as the file has them.
    expect(entries[0]!.description).toBe("Led the platform team.\nMoved every service to the edge.");
    expect(entries[4]!.description).toBe('First place of 40 teams, with a "zero-downtime" deploy tool.');
    // Nothing is saved before 'Add'.
    expect(await achievementsOf(person.id)).toEqual([]);
    expect(html).toContain("Add 4 achievements");
  });

  it("adds the ticked entries as the person's own achievements, edits included, and shows them on the passport", async () => {
    const person = await createAccount();
    const entries = await reviewOf(await readHistory(person.cookie, [linkedInZip()]));
    const honour = entries.find((entry) => entry.title === "Hackathon winner")!;
    honour.company = "Lisbon Tech Week";
    honour.selected = true;
    entries[1]!.title = "  Payments Engineer  ";
    const response = await addHistory(person.cookie, entries);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/passport");
    expect(toastFrom(response)).toMatchObject({
      title: "Achievements added",
      description: "5 achievements were added to your passport",
    });
    expect(await achievementsOf(person.id)).toEqual([
      expect.objectContaining({
        title: "Certified Kubernetes Administrator - Cloud Native Computing Foundation",
        date: "2021-06-01",
        type: "training",
        description: "License number: LF-123",
      }),
      expect.objectContaining({
        title: "Head of Platform - Northwind Traders",
        date: "2019-03-01",
        type: "milestone",
        description: "Led the platform team.\nMoved every service to the edge.",
      }),
      expect.objectContaining({ title: "Hackathon winner - Lisbon Tech Week", date: "2018-11-01", type: "award" }),
      expect.objectContaining({ title: "Payments Engineer - Contoso", date: "2015-01-01", description: null }),
      expect.objectContaining({
        title: "MSc Computer Science - University of Lisbon",
        type: "training",
        description: "• Chess club",
      }),
    ]);
    // Self achievements: no organisation, accepted and shown at once.
    for (const row of await achievementsOf(person.id))
      expect(row).toMatchObject({ org: null, status: "accepted", visible: 1 });
    const passport = await (await get(`/passport/${person.id}?all=1`)).text();
    for (const text of ["Head of Platform", "Northwind Traders", "Hackathon winner", "Lisbon Tech Week"])
      expect(passport).toContain(text);
  });

  it("adds nothing twice: the same file again shows its entries as already there, and posting the list again adds nothing", async () => {
    const person = await createAccount();
    const first = await reviewOf(await readHistory(person.cookie, [linkedInZip()]));
    expect((await addHistory(person.cookie, first)).status).toBe(302);
    expect(await achievementsOf(person.id)).toHaveLength(4);

    // A double submit, or the back button and 'Add' again.
    const again = await addHistory(person.cookie, first);
    expect(toastFrom(again)).toMatchObject({ title: "Nothing new to add" });
    expect(await achievementsOf(person.id)).toHaveLength(4);

    // The same file read again: what was added is marked and cannot be ticked; the rest can.
    const second = await reviewOf(await readHistory(person.cookie, [linkedInZip()]));
    expect(second.filter((entry) => entry.alreadyAdded).map((entry) => entry.title)).toEqual([
      "Head of Platform",
      "Engineer, Payments",
      "Certified Kubernetes Administrator",
      "MSc Computer Science",
    ]);
    expect(second.filter((entry) => entry.selected)).toEqual([]);
    // Even a forged tick on an entry already there adds nothing.
    const forged = second.map((entry) => ({ ...entry, alreadyAdded: false, selected: entry.alreadyAdded }));
    expect(toastFrom(await addHistory(person.cookie, forged))).toMatchObject({ title: "Nothing new to add" });
    expect(await achievementsOf(person.id)).toHaveLength(4);
  });

  it("reads the CSV files on their own, several at once", async () => {
    const person = await createAccount();
    const entries = await reviewOf(
      await readHistory(person.cookie, [
        csvFile("Positions.csv", "Company Name,Title,Started On\nFabrikam,Analyst,2012\n"),
        csvFile("Education.csv", "School Name,Start Date,End Date,Degree Name\nOpen University,Sep 2008,Jun 2011,\n"),
      ]),
    );
    expect(summary(entries)).toEqual([
      { title: "Analyst", company: "Fabrikam", date: "2012-01-01", type: "milestone", selected: true, problem: null },
      {
        title: "Education",
        company: "Open University",
        date: "2011-06-01",
        type: "training",
        selected: true,
        problem: null,
      },
    ]);
  });

  it("reports entries that break the rules, and a ticked one keeps the list as posted with its reason", async () => {
    const person = await createAccount();
    const long = "x".repeat(201);
    const entries = await reviewOf(
      await readHistory(person.cookie, [
        csvFile(
          "Positions.csv",
          [
            "Company Name,Title,Description,Started On",
            `Fabrikam,${long},,2012`,
            `${long},Analyst,,2012`,
            `Fabrikam,Writer,${"y".repeat(1001)},2013`,
            "Fabrikam,Lead,,someday",
            "Fabrikam,Director,,Jan 2020",
            "Fabrikam,Evil\u202Egnp.exe,,2012",
          ].join("\n"),
        ),
      ]),
    );
    expect(entries.map((entry) => entry.problem)).toEqual([
      "Title must be less than 200 characters",
      "Company name must be less than 200 characters",
      "Description must be less than 1000 characters",
      "Date is required",
      null,
      // The Add Self Achievement form's rules for plain text (decision 011).
      "Title cannot contain text direction override characters",
    ]);
    expect(entries.map((entry) => entry.selected)).toEqual([false, false, false, false, true, false]);

    // Ticking one that breaks a rule adds nothing, and the list comes back as it was posted.
    entries[3]!.selected = true;
    entries[4]!.title = "Director of Research";
    const refused = await addHistory(person.cookie, entries);
    expect(refused.status).toBe(400);
    const back = await reviewOf(refused);
    expect(back[3]).toMatchObject({ selected: true, problem: "Date is required", date: "" });
    expect(back[4]).toMatchObject({ selected: true, title: "Director of Research", problem: null });
    expect(await achievementsOf(person.id)).toEqual([]);

    // Fixed, it goes in.
    back[3]!.date = "2014-05-02";
    expect((await addHistory(person.cookie, back)).status).toBe(302);
    expect((await achievementsOf(person.id)).map((row) => row.title)).toEqual([
      "Director of Research - Fabrikam",
      "Lead - Fabrikam",
    ]);
  });

  it("refuses a file that is not an export, and one over 5 MB, with the reason", async () => {
    const person = await createAccount();
    const other = await readHistory(person.cookie, [
      csvFile("Connections.csv", "First Name,Last Name\nAda,Lovelace\n"),
    ]);
    expect(other.status).toBe(400);
    expect(await other.text()).toContain("neither a LinkedIn data export");

    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], "Positions.csv", { type: "text/csv" });
    const tooLarge = await readHistory(person.cookie, [big]);
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.text()).toContain("Please choose a file smaller than 5 MB.");

    const noCareer = await readHistory(person.cookie, [linkedInZip({})]);
    expect(noCareer.status).toBe(400);
    expect(await noCareer.text()).toContain("holds none of LinkedIn&#x27;s career files");
  });
});

describe("importing a JSON Resume", () => {
  it("reads the schema project's sample résumé: work, volunteering, education and awards", async () => {
    const person = await createAccount();
    const response = await readHistory(person.cookie, [jsonResumeFile()]);
    expect(response.status).toBe(200);
    const entries = await reviewOf(response);
    expect(summary(entries)).toEqual([
      {
        title: "CEO/President",
        company: "Pied Piper",
        date: "2013-12-01",
        type: "milestone",
        selected: true,
        problem: null,
      },
      { title: "Teacher", company: "CoderDojo", date: "2012-01-01", type: "milestone", selected: true, problem: null },
      {
        title: "Bachelor, Information Technology",
        company: "University of Oklahoma",
        date: "2014-01-01",
        type: "training",
        selected: true,
        problem: null,
      },
      {
        title: "Digital Compression Pioneer Award",
        company: "Techcrunch",
        date: "2014-11-01",
        type: "award",
        selected: true,
        problem: null,
      },
    ]);
    expect(entries[0]!.description).toContain("• Successfully won Techcrunch Disrupt");
    expect((await addHistory(person.cookie, entries)).status).toBe(302);
    expect(await achievementsOf(person.id)).toHaveLength(4);
    // The same résumé again adds nothing.
    expect(toastFrom(await addHistory(person.cookie, entries))).toMatchObject({ title: "Nothing new to add" });
    expect(await achievementsOf(person.id)).toHaveLength(4);
  });

  it("reads certificates as training", async () => {
    const person = await createAccount();
    const entries = await reviewOf(
      await readHistory(person.cookie, [
        jsonResumeFile({ certificates: [{ name: "AWS Solutions Architect", issuer: "Amazon", date: "2021-11" }] }),
      ]),
    );
    expect(summary(entries)).toEqual([
      {
        title: "AWS Solutions Architect",
        company: "Amazon",
        date: "2021-11-01",
        type: "training",
        selected: true,
        problem: null,
      },
    ]);
  });

  it("refuses a résumé the schema refuses, saying where", async () => {
    const person = await createAccount();
    const response = await readHistory(person.cookie, [
      jsonResumeFile({ work: [{ name: "Acme", startDate: "March" }] }),
    ]);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("This file is not a valid JSON Resume (work/0/startDate");
  });
});

describe("who may import", () => {
  it("a signed-out visitor is sent to sign in, and nothing is read or saved", async () => {
    const page = await get(PATH);
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toMatch(/^\/auth\?/);
    const posted = await readHistory("", [linkedInZip()]);
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toMatch(/^\/auth\?/);
  });

  it("adds only to the signed-in person's own passport, whatever the form names", async () => {
    const person = await createAccount();
    const other = await createAccount();
    const entries = await reviewOf(await readHistory(person.cookie, [linkedInZip()]));
    const response = await addHistory(person.cookie, entries, { userId: other.id });
    expect(response.status).toBe(302);
    expect(await achievementsOf(other.id)).toEqual([]);
    expect(await achievementsOf(person.id)).toHaveLength(4);
  });

  it(`reads at most ${RATE_LIMITS["history-import"].max} files a minute per person`, async () => {
    const person = await createAccount();
    const read = () => readHistory(person.cookie, [csvFile("Positions.csv", "Company Name,Title\nAcme,Analyst\n")]);
    for (let index = 0; index < RATE_LIMITS["history-import"].max; index++) expect((await read()).status).toBe(200);
    const refused = await read();
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain(RATE_LIMIT_MESSAGE);
    // Another person is not held back.
    const other = await createAccount();
    expect((await readHistory(other.cookie, [linkedInZip()])).status).toBe(200);
  });

  // Issue 43: 'Add N achievements' is throttled as reading a file is, in the batch that adds.
  it(`adds under the same limit as reading: past ${RATE_LIMITS["history-import"].max} a minute, nothing is added`, async () => {
    const person = await createAccount();
    const entries = await reviewOf(await readHistory(person.cookie, [linkedInZip()]));
    await env.DB.prepare("update rate_limits set count = ? where key = ?")
      .bind(RATE_LIMITS["history-import"].max, `history-import:user:${person.id}`)
      .run();
    const refused = await addHistory(person.cookie, entries);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain(RATE_LIMIT_MESSAGE);
    expect(await achievementsOf(person.id)).toEqual([]);
  });

  // Issue 43: the import key is computed on the server from the entry, never taken from the form.
  it("derives each entry's key on the server: a forged key neither hides an entry nor stands for it", async () => {
    const person = await createAccount();
    const entries = await reviewOf(await readHistory(person.cookie, [linkedInZip()]));
    const [first, second] = entries.filter((entry) => entry.selected);
    expect((await addHistory(person.cookie, [{ ...first!, selected: true }])).status).toBe(302);
    // The second entry posted under the first one's key, as a forged form would.
    const forged = { ...second!, key: first!.key, selected: true };
    expect(toastFrom(await addHistory(person.cookie, [forged]))).toMatchObject({ title: "Achievements added" });
    expect(await achievementsOf(person.id)).toHaveLength(2);
    // Any key at all names the same entry: posting it again under another adds nothing.
    const renamed = { ...second!, key: `history:${"A".repeat(24)}`, selected: true };
    expect(toastFrom(await addHistory(person.cookie, [renamed]))).toMatchObject({ title: "Nothing new to add" });
    expect(await achievementsOf(person.id)).toHaveLength(2);
  });

  it(`holds at most ${HISTORY_ENTRIES_MAX} history entries per person, adding all of a list or none of it`, async () => {
    const person = await createAccount();
    const entries = (await reviewOf(await readHistory(person.cookie, [linkedInZip()]))).filter((e) => e.selected);
    expect(entries).toHaveLength(4);
    await env.DB.prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
       insert into achievements (id, user_id, created_by, title, date, type, status, is_visible, submission_key, created_at)
       select 'seeded-' || i || ?, ?, ?, 'Role ' || i, '2020-01-01', 'milestone', 'accepted', 1,
         'history:' || substr('000000000000000000000000' || i, -24), 0 from n`,
    )
      .bind(HISTORY_ENTRIES_MAX - 3, person.id, person.id, person.id)
      .run();
    // The review list says so before 'Add': room for 3 more, and 4 ticked.
    expect(await (await readHistory(person.cookie, [linkedInZip()])).text()).toContain(
      "A passport holds at most 2,000 imported entries, and yours has room for 3 more. Untick 1, or delete imported ones you no longer need.",
    );
    const refused = await addHistory(person.cookie, entries);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(
      "A passport holds at most 2,000 imported entries, and these would take yours past it.",
    );
    expect(await achievementsOf(person.id)).toHaveLength(HISTORY_ENTRIES_MAX - 3);
    expect((await addHistory(person.cookie, entries.slice(0, 3))).status).toBe(302);
    expect(await achievementsOf(person.id)).toHaveLength(HISTORY_ENTRIES_MAX);
    // An entry already there takes no more room: the same list again is answered, not refused.
    expect(toastFrom(await addHistory(person.cookie, entries.slice(0, 3)))).toMatchObject({
      title: "Nothing new to add",
    });
  });

  it("a page with the review needs no JavaScript: the list is a form posted to the same page", async () => {
    const person = await createAccount();
    const page = await get(PATH, person.cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("<title>Import history");
    expect(html.toLowerCase()).toContain('enctype="multipart/form-data"');
    const unknown = await postForm(PATH, { intent: "something-else" }, { cookie: person.cookie });
    expect(unknown.status).toBe(400);
  });
});

describe("LinkedIn's CSV quirks", () => {
  it.each([
    ["notes lines above the header", 'Notes:\n"Some, notes"\n\nName,Authority,Started On\nCKA,CNCF,2020\n'],
    ["a byte-order mark", "\uFEFFName,Authority,Started On\nCKA,CNCF,2020\n"],
    ["CRLF line ends and a blank line at the end", "Name,Authority,Started On\r\nCKA,CNCF,2020\r\n\r\n"],
    ["columns in another order, and more of them", "Url,Started On,Authority,Name,Extra\n,2020,CNCF,CKA,x\n"],
  ])("reads a file with %s", (_, text) => {
    expect(readLinkedInCsv(text)).toEqual([
      {
        source: "Certifications.csv",
        type: "training",
        title: "CKA",
        company: "CNCF",
        description: "",
        date: "2020-01-01",
      },
    ]);
  });

  it.each([
    ["Mar 2019", "2019-03-01"],
    ["March 2019", "2019-03-01"],
    ["2019", "2019-01-01"],
    ["2019-03", "2019-03-01"],
    ["2019-03-15", "2019-03-15"],
    ["Mar 15, 2019", "2019-03-15"],
    ["15 Mar 2019", "2019-03-15"],
    ["3/15/19", "2019-03-15"],
    ["2/30/2019", null],
    ["", null],
    ["someday", null],
  ])("reads the date %j as %j", (text, date) => {
    expect(historyDate(text)).toBe(date);
  });
});
