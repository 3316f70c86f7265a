import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  bioSchema,
  createOrganizationSchema,
  feedbackSchema,
  orgSignUpSchema,
  passwordSchema,
  profileSchema,
  resendSchema,
  searchSchema,
  signInSchema,
  signUpSchema,
} from "#app/utils/form-schemas.ts";
import { giveAchievementSchema, latestTodayAnywhere, selfAchievementSchema } from "#app/utils/achievement-schemas.ts";
import { MEDIA_URL_MESSAGE } from "#app/utils/validation.ts";
import { today } from "#tests/today.ts";

// Property tests of every form schema of the app (docs/security.md, "Property tests of the
// schemas"): any text within the limits after trimming is accepted as the trimmed text; anything
// past them is refused with the spec's message; blank, control and bidi override characters are
// refused with theirs (decision 011).

/** The first message for one field, or null when the schema accepted the whole object. */
function messageFor(schema: z.ZodType, object: Record<string, unknown>, field: string) {
  const result = schema.safeParse(object);
  if (result.success) return null;
  return result.error.issues.find((issue) => issue.path[0] === field)?.message ?? null;
}
function parsedField(schema: z.ZodType, object: Record<string, unknown>, field: string) {
  const result = schema.safeParse(object);
  if (!result.success) throw new Error(`refused: ${JSON.stringify(result.error.issues.map((issue) => issue.message))}`);
  return (result.data as Record<string, unknown>)[field];
}

const SINGLE_LINE_CONTROLS = [...Array(0x20).keys(), ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i)].map((code) =>
  String.fromCharCode(code),
);
const MULTI_LINE_CONTROLS = SINGLE_LINE_CONTROLS.filter((char) => !["\t", "\n", "\r"].includes(char));
const BIDI_CONTROLS = ["\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069"];
const FORBIDDEN = new RegExp(
  `[${[...SINGLE_LINE_CONTROLS, ...BIDI_CONTROLS].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")}]`,
);
const INVISIBLE = ["\u200B", "\u200C", "\u200D", "\u2060", "\uFEFF", "\u00AD", "\u3164", "\u2800"];
/** Whitespace that trim() removes (line breaks included: in single-line fields they go with the trim). */
const PADDING = fc.string({
  unit: fc.constantFrom(" ", "\t", "\n", "\r", "\u00A0", "\u2003", "\u3000", "\u2028"),
  maxLength: 4,
});
const SAMPLE_CHARS = [
  "a",
  "Z",
  "é",
  "ß",
  "ש",
  "م",
  "中",
  "👍",
  "👩🏽‍💻",
  "<",
  ">",
  "&",
  '"',
  "'",
  "%",
  "_",
  "\\",
  " ",
  "\u200B",
  "\u200F",
];

/** Length as the schemas count it: Unicode code points (zod 4), not UTF-16 units. */
const length = (text: string) => [...text].length;

/** Text with a visible character and no refused character, `min`..`max` UTF-16 units after trimming. */
function allowedText(min: number, max: number, { multiline }: { multiline: boolean }) {
  const random = fc.string({ unit: "grapheme", minLength: 1, maxLength: Math.min(max, 60) });
  const long = fc
    .tuple(
      fc.integer({ min, max }),
      fc.constantFrom(...SAMPLE_CHARS.filter((char) => char.trim() !== "" && !["\u200B", "\u200F"].includes(char))),
    )
    .map(([size, char]) => char.repeat(Math.max(1, Math.floor(size / length(char)))));
  const withLines = multiline ? fc.tuple(random, random).map(([a, b]) => `${a}\r\n\t${b}`) : random;
  return fc
    .oneof(
      random,
      long,
      withLines,
      fc.string({ unit: fc.constantFrom(...SAMPLE_CHARS), minLength: 1, maxLength: Math.min(max, 200) }),
    )
    .filter((text) => {
      const trimmed = text.trim();
      return (
        length(trimmed) >= min &&
        length(trimmed) <= max &&
        !FORBIDDEN.test(multiline ? text.replace(/[\t\n\r]/g, "") : trimmed) &&
        /[^\s\p{Cf}\u3164\u2800\u115F\u1160\uFFA0]/u.test(trimmed)
      );
    });
}
/** Any text (any code unit at all) that is longer than `max` after trimming. */
const tooLong = (max: number) =>
  fc
    .oneof(
      fc.string({ unit: "binary", minLength: max + 1, maxLength: max + 50 }),
      fc
        .tuple(fc.integer({ min: max + 1, max: 10_000 }), fc.constantFrom(...SAMPLE_CHARS))
        .map(([size, char]) => char.repeat(Math.ceil(size / length(char)))),
    )
    .filter((text) => length(text.trim()) > max);
const blank = fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\u00A0", "\u3000", ...INVISIBLE), maxLength: 12 });

type TextRule = { label: string; max: number; tooLong: string; required: string | null; multiline: boolean };

/** The properties every text field holds, checked inside the object schema that carries it. */
function textFieldProperties(
  name: string,
  schema: z.ZodType,
  base: Record<string, unknown>,
  field: string,
  rule: TextRule,
) {
  describe(`${name}: ${field}`, () => {
    const withValue = (value: unknown) => ({ ...base, [field]: value });
    it(`accepts any text of ${rule.required ? 1 : 0} to ${rule.max} characters after trimming, as the trimmed text`, () => {
      fc.assert(
        fc.property(PADDING, allowedText(1, rule.max, rule), PADDING, (before, text, after) => {
          expect(parsedField(schema, withValue(before + text + after), field)).toBe((before + text + after).trim());
        }),
      );
    });
    it(`refuses anything past ${rule.max} characters with "${rule.tooLong}"`, () => {
      fc.assert(
        fc.property(
          tooLong(rule.max),
          (text) => void expect(messageFor(schema, withValue(text), field)).toBe(rule.tooLong),
        ),
      );
    });
    it(
      rule.required
        ? `refuses blank or invisible-only text with "${rule.required}"`
        : "stores blank or invisible-only text as nothing",
      () => {
        fc.assert(
          fc.property(blank, (text) => {
            if (rule.required) expect(messageFor(schema, withValue(text), field)).toBe(rule.required);
            else expect(parsedField(schema, withValue(text), field)).toBeNull();
          }),
        );
      },
    );
    it("refuses a control character anywhere inside, NUL included", () => {
      const controls = rule.multiline ? MULTI_LINE_CONTROLS : SINGLE_LINE_CONTROLS;
      fc.assert(
        fc.property(allowedText(2, rule.max - 1, rule), fc.constantFrom(...controls), fc.nat(), (text, control, at) => {
          const trimmed = text.trim();
          const points = [...trimmed];
          const position = 1 + (at % (points.length - 1 || 1));
          const value = points.slice(0, position).join("") + control + points.slice(position).join("");
          expect(messageFor(schema, withValue(value), field)).toBe(`${rule.label} cannot contain control characters`);
        }),
      );
    });
    it("refuses a bidirectional override, embedding or isolate character", () => {
      fc.assert(
        fc.property(allowedText(1, rule.max - 1, rule), fc.constantFrom(...BIDI_CONTROLS), (text, bidi) => {
          expect(messageFor(schema, withValue(`${text.trim()}${bidi}`), field)).toBe(
            `${rule.label} cannot contain text direction override characters`,
          );
        }),
      );
    });
  });
}

const UUID = "0b8a3a4e-5c1e-4a8e-9b1e-1d2c3b4a5f60";
const name = {
  label: "Name",
  max: 100,
  tooLong: "Name must be less than 100 characters",
  required: "Name is required",
  multiline: false,
};
const organizationName = {
  label: "Organisation name",
  max: 100,
  tooLong: "Organisation name must be less than 100 characters",
  required: "Please enter an organisation name",
  multiline: false,
};
const description = {
  label: "Description",
  max: 1000,
  tooLong: "Description must be less than 1000 characters",
  required: null,
  multiline: true,
};
const bio = {
  label: "Bio",
  max: 1000,
  tooLong: "Bio must be less than 1000 characters",
  required: null,
  multiline: true,
};
const title = {
  label: "Title",
  max: 200,
  tooLong: "Title must be less than 200 characters",
  required: "Title is required",
  multiline: false,
};

const signUp = { intent: "signup", name: "Ada", email: "ada@example.com", password: "correct-horse" };
const orgSignUp = { ...signUp, intent: "org-signup", organizationName: "Acme" };
const give = { intent: "give-achievement", userId: UUID, title: "Star", date: today(), type: "award" };
const self = {
  intent: "add-self-achievement",
  title: "Marathon",
  company: "City Runners",
  date: today(),
  type: "milestone",
};

textFieldProperties("sign-up", signUpSchema, signUp, "name", name);
textFieldProperties("organisation sign-up", orgSignUpSchema, orgSignUp, "organizationName", organizationName);
textFieldProperties("organisation sign-up", orgSignUpSchema, orgSignUp, "organizationDescription", description);
textFieldProperties("settings profile", profileSchema, { intent: "update-profile", fullName: "Ada" }, "fullName", name);
textFieldProperties("settings profile", profileSchema, { intent: "update-profile", fullName: "Ada" }, "bio", bio);
textFieldProperties("passport bio", bioSchema, { intent: "update-bio" }, "bio", bio);
textFieldProperties("settings feedback", feedbackSchema, { intent: "send-feedback" }, "message", {
  label: "Feedback",
  max: 2000,
  tooLong: "Feedback must be less than 2000 characters",
  required: "Feedback is required",
  multiline: true,
});
textFieldProperties(
  "create organisation",
  createOrganizationSchema,
  { intent: "create-organization", name: "Acme" },
  "name",
  organizationName,
);
textFieldProperties(
  "create organisation",
  createOrganizationSchema,
  { intent: "create-organization", name: "Acme" },
  "description",
  description,
);
textFieldProperties("give achievement", giveAchievementSchema, give, "title", title);
textFieldProperties("give achievement", giveAchievementSchema, give, "description", description);
textFieldProperties("self achievement", selfAchievementSchema, self, "title", title);
textFieldProperties("self achievement", selfAchievementSchema, self, "description", description);
textFieldProperties("self achievement", selfAchievementSchema, self, "company", {
  label: "Company name",
  max: 200,
  tooLong: "Company name must be less than 200 characters",
  required: "Company/Organization is required",
  multiline: false,
});
textFieldProperties("dashboard search", searchSchema, {}, "q", {
  label: "Search term",
  max: 100,
  tooLong: "Search term must be less than 100 characters",
  required: "Search term cannot be empty",
  multiline: false,
});

describe("e-mail and password fields", () => {
  const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,20}[a-z0-9])?$/);
  const email = fc
    .tuple(
      fc.stringMatching(/^[a-z0-9_+-](?:[a-z0-9_+.-]{0,40}[a-z0-9_+-])?$/),
      fc.array(label, { minLength: 1, maxLength: 3 }),
      fc.stringMatching(/^[a-z]{2,6}$/),
    )
    .map(([local, labels, tld]) => `${local}@${[...labels, tld].join(".")}`)
    .filter((value) => !value.includes(".."));
  const schemas = [
    ["sign-in", signInSchema, { intent: "signin", password: "correct-horse" }],
    ["sign-up", signUpSchema, signUp],
    ["resend", resendSchema, { intent: "resend-verification" }],
  ] as const;
  it.each(schemas)(
    "%s accepts any plain address up to 255 characters, trimmed, and refuses longer ones",
    (_, schema, base) => {
      fc.assert(
        fc.property(
          PADDING,
          email,
          (pad, value) => void expect(parsedField(schema, { ...base, email: pad + value + pad }, "email")).toBe(value),
        ),
      );
      fc.assert(
        fc.property(email, fc.integer({ min: 1, max: 300 }), (value, extra) => {
          const long = "a".repeat(Math.max(0, 256 - value.length) + extra) + value;
          expect(messageFor(schema, { ...base, email: long }, "email")).toBe("Email must be less than 255 characters");
        }),
      );
      fc.assert(
        fc.property(
          fc.string({ maxLength: 40 }).filter((value) => !value.includes("@")),
          (value) => {
            expect(messageFor(schema, { ...base, email: value }, "email")).toBe("Invalid email address");
          },
        ),
      );
    },
  );
  it.each([
    ["sign-in", signInSchema, { intent: "signin", email: "ada@example.com" }, "password"],
    ["sign-up", signUpSchema, signUp, "password"],
  ] as const)(
    "%s accepts any password of 6 to 128 characters exactly as typed, and refuses others",
    (_, schema, base, field) => {
      fc.assert(
        fc.property(
          fc.string({ unit: "binary", minLength: 6, maxLength: 128 }).filter((p) => p.length >= 6 && p.length <= 128),
          (password) => {
            expect(parsedField(schema, { ...base, [field]: password }, field)).toBe(password);
          },
        ),
      );
      fc.assert(
        fc.property(
          fc.string({ unit: "binary", maxLength: 5 }).filter((p) => p.length < 6),
          (password) => {
            expect(messageFor(schema, { ...base, [field]: password }, field)).toBe(
              "Password must be at least 6 characters",
            );
          },
        ),
      );
      fc.assert(
        fc.property(
          fc.string({ unit: "binary", minLength: 129, maxLength: 400 }).filter((p) => p.length > 128),
          (password) => {
            expect(messageFor(schema, { ...base, [field]: password }, field)).toBe(
              "Password must be less than 128 characters",
            );
          },
        ),
      );
    },
  );
  it("the new password: 6 to 128 characters, and the confirmation must match", () => {
    const base = { intent: "change-password", currentPassword: "old-password" };
    fc.assert(
      fc.property(
        fc.string({ minLength: 6, maxLength: 128 }).filter((p) => p.length >= 6 && p.length <= 128),
        fc.string(),
        (password, other) => {
          expect(passwordSchema.safeParse({ ...base, newPassword: password, confirmPassword: password }).success).toBe(
            true,
          );
          fc.pre(other !== password);
          expect(
            messageFor(passwordSchema, { ...base, newPassword: password, confirmPassword: other }, "confirmPassword"),
          ).toBe("Passwords don't match");
        },
      ),
    );
  });
});

describe("achievement dates, types, people, ratings and links", () => {
  const DAY = 86_400_000;
  const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);
  it("accepts any real date up to today anywhere on Earth and refuses any later one", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.now() }), (time) => {
        expect(messageFor(giveAchievementSchema, { ...give, date: isoDate(time) }, "date")).toBeNull();
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 365 * 100 }), (days) => {
        const date = isoDate(Date.parse(latestTodayAnywhere()) + days * DAY);
        expect(messageFor(selfAchievementSchema, { ...self, date }, "date")).toBe("Date cannot be in the future");
      }),
    );
    fc.assert(
      fc.property(
        fc.string({ maxLength: 12 }).filter((value) => !/^\d{4}-\d{2}-\d{2}$/.test(value)),
        (date) => {
          expect(messageFor(giveAchievementSchema, { ...give, date }, "date")).toBe("Date is required");
        },
      ),
    );
  });
  it("refuses any type but award, training and milestone, and any person that is not a UUID", () => {
    fc.assert(
      fc.property(
        fc.string().filter((type) => !["award", "training", "milestone"].includes(type)),
        (type) => {
          expect(messageFor(giveAchievementSchema, { ...give, type }, "type")).toBe("Please select a type");
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.uuid({ version: 4 }),
        (userId) => void expect(messageFor(giveAchievementSchema, { ...give, userId }, "userId")).toBeNull(),
      ),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (userId) => {
        expect(messageFor(giveAchievementSchema, { ...give, userId }, "userId")).toBe("Please select a person");
      }),
    );
  });
  it("a feedback rating is a whole number from 1 to 5", () => {
    const base = { intent: "send-feedback", message: "Nice" };
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        (rating) =>
          void expect(parsedField(feedbackSchema, { ...base, rating: String(rating) }, "rating")).toBe(rating),
      ),
    );
    fc.assert(
      fc.property(
        fc.integer().filter((rating) => rating < 1 || rating > 5),
        (rating) => {
          expect(messageFor(feedbackSchema, { ...base, rating: String(rating) }, "rating")).toBe(
            "Rating must be 1 to 5",
          );
        },
      ),
    );
  });
  it("an image or video link: any https URL with a host is kept (normalised); any other scheme is refused", () => {
    const https = fc
      .webUrl({ validSchemes: ["https"], withQueryParameters: true, withFragments: true })
      .filter((url) => url.length <= 2000);
    for (const schema of [giveAchievementSchema, selfAchievementSchema]) {
      const base = schema === giveAchievementSchema ? give : self;
      fc.assert(
        fc.property(
          https,
          (url) => void expect(parsedField(schema, { ...base, mediaUrl: url }, "mediaUrl")).toBe(new URL(url).href),
        ),
      );
      fc.assert(
        fc.property(
          fc.constantFrom(
            "http://",
            "javascript:",
            "JavaScript:",
            "data:",
            "vbscript:",
            "file://",
            "ftp://",
            "//",
            "/",
            "https:",
            "https:/",
            "https:\\\\",
            "blob:https://",
          ),
          https.map((url) => url.slice("https://".length)),
          (scheme, rest) =>
            void expect(messageFor(schema, { ...base, mediaUrl: scheme + rest }, "mediaUrl")).toBe(MEDIA_URL_MESSAGE),
        ),
      );
      fc.assert(
        fc.property(
          https,
          fc.constantFrom(...SINGLE_LINE_CONTROLS.filter((char) => !/\s/.test(char)), ...BIDI_CONTROLS),
          (url, char) => {
            expect(messageFor(schema, { ...base, mediaUrl: url + char + "x" }, "mediaUrl")).toBe(MEDIA_URL_MESSAGE);
          },
        ),
      );
    }
  });
});
