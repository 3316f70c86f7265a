import { getZodConstraint } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import * as validators from "#app/utils/form-validators.ts";

// A page renders its form fields' constraints (required, pattern) before the browser has zod
// (docs/decisions/039): each form's constraints are written out in form-validators.ts, and must be
// exactly what Conform derives from the schema that the server and, once loaded, the browser
// validate with. A schema change that alters them fails here.
describe("form validators", () => {
  const entries = Object.entries(validators).filter(([name]) => name.endsWith("Validator"));

  it("cover every form that validates in the browser", () => {
    expect(entries.map(([name]) => name).sort()).toEqual([
      "bioValidator",
      "createOrganizationValidator",
      "endorseValidator",
      "feedbackValidator",
      "forgotPasswordValidator",
      "giveAchievementValidator",
      "importCheckValidator",
      "orgSignUpValidator",
      "passwordValidator",
      "preferencesValidator",
      "profileValidator",
      "resendValidator",
      "resetPasswordValidator",
      "selfAchievementValidator",
      "signInValidator",
      "signUpValidator",
    ]);
  });

  for (const [name, validator] of entries) {
    it(`${name} renders the constraints its schema gives`, async () => {
      expect(validator.constraint).toEqual(getZodConstraint(await validator.schema()));
    });
  }
});
