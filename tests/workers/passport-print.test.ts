import { describe, expect, it } from "vitest";
import { PRINTED_ENTRIES_MAX, PUBLIC_PASSPORT_INITIAL_ENTRIES } from "#app/utils/constants.ts";
import { createAccount, get } from "./helpers.ts";
import { addHistory, csvFile, readHistory, reviewOf } from "./history-import-helpers.ts";

// Issue 32, "Print shows it all": Ctrl+P on a public passport prints every entry it shows when
// there are at most PRINTED_ENTRIES_MAX; a longer one prints its first entries and the address
// of its print view. The page carries the entries past the first ones for paper only.

/** A person whose passport holds `count` entries (Role 1 to Role {count}), imported as LinkedIn positions. */
async function personWithEntries(count: number) {
  const person = await createAccount({ name: "Pat Printer" });
  const rows = Array.from({ length: count }, (_, index) => `Fabrikam,Role ${index + 1},,2020-01-01`);
  const csv = ["Company Name,Title,Description,Started On", ...rows].join("\n");
  const entries = await reviewOf(await readHistory(person.cookie, [csvFile("Positions.csv", csv)]));
  expect((await addHistory(person.cookie, entries)).status).toBe(302);
  return person;
}

/** The entries of the passport page: on screen, and on paper only. */
async function entriesOf(path: string) {
  const html = (await (await get(path)).text()).replace(/<!--.*?-->/g, "");
  const items = [...html.matchAll(/<li class="([^"]*)"><span[^>]*><\/span><article.*?<\/article><\/li>/gs)];
  return {
    html,
    screen: items.filter(([, classes]) => !classes!.split(" ").includes("hidden")).length,
    paperOnly: items.filter(([, classes]) => classes!.split(" ").includes("hidden") && classes!.includes("print:block"))
      .length,
  };
}

describe("printing a public passport", () => {
  it.each([
    [3, 3, 0],
    [PUBLIC_PASSPORT_INITIAL_ENTRIES + 4, PUBLIC_PASSPORT_INITIAL_ENTRIES, 4],
    [PRINTED_ENTRIES_MAX, PUBLIC_PASSPORT_INITIAL_ENTRIES, PRINTED_ENTRIES_MAX - PUBLIC_PASSPORT_INITIAL_ENTRIES],
  ])("with %i entries shows %i on screen and prints every one, with no pointer", async (count, screen, paperOnly) => {
    const person = await personWithEntries(count);
    const page = await entriesOf(`/passport/${person.id}`);
    expect({ screen: page.screen, paperOnly: page.paperOnly }).toEqual({ screen, paperOnly });
    expect(page.html).not.toContain("more achievements:");
    for (let index = 1; index <= count; index++) expect(page.html).toContain(`>Role ${index}<`);
  });

  it("with more than 50 prints the first entries and the print view's address, as before", async () => {
    const count = PRINTED_ENTRIES_MAX + 1;
    const person = await personWithEntries(count);
    const page = await entriesOf(`/passport/${person.id}`);
    expect({ screen: page.screen, paperOnly: page.paperOnly }).toEqual({
      screen: PUBLIC_PASSPORT_INITIAL_ENTRIES,
      paperOnly: 0,
    });
    expect(page.html).toContain(
      `${count - PUBLIC_PASSPORT_INITIAL_ENTRIES} more achievements: http://localhost/passport/${person.id}/print`,
    );
    // The print view itself holds them all.
    const print = await entriesOf(`/passport/${person.id}/print`);
    expect(print.screen).toBe(count);
  });
});
