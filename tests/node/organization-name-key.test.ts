import { describe, expect, it } from "vitest";
import { organizationNameKey } from "#db/queries/organizations.ts";

// Issue 43: organisations' names are compared by their UTS #39 skeleton (decision 092), so a
// name that looks the same is the same name, whatever invisible or look-alike characters it holds.

describe("organisations' names are compared as they look", () => {
  const oxford = organizationNameKey("University of Oxford");
  it.each([
    ["case and spaces", "UNIVERSITY  of oxford "],
    ["an accent", "Univérsity of Oxford"],
    ["a zero-width space", "University of\u200B Oxford"],
    ["a soft hyphen and a zero-width joiner", "Uni\u00ADversity of Ox\u200Dford"],
    ["a Cyrillic і", "Un\u0456versity of Oxford"],
    ["a Cyrillic о and е", "University \u043Ef Oxford".replace("e", "\u0435")],
    ["a Greek ο", "University of Oxf\u03BFrd"],
    ["fullwidth letters", "Ｕniversity of Oxford"],
    ["a digit 0 for an O", "University of 0xford"],
  ])("is the same name with %s", (_case, name) => {
    expect(organizationNameKey(name)).toBe(oxford);
  });

  it.each([["University of Cambridge"], ["University of Oxfordshire"], ["Oxford University"]])(
    "is another name: %s",
    (name) => {
      expect(organizationNameKey(name)).not.toBe(oxford);
    },
  );
});
