import { describe, expect, it } from "vitest";
import { OTHER_ADDRESS } from "#app/services/imports/import-result.ts";
import assertion from "../fixtures/ob2/beths-robotics-badge.json";
import badgeClass from "../fixtures/ob2/robotics-badge.json";
import issuer from "../fixtures/ob2/organization.json";
import bakedSvg from "../fixtures/ob2/baked-hosted.svg?raw";
import { asFile, asText, bakedPng, publish, verifyAsImport } from "./import-helpers.ts";

// Issue 32: the importer reads Open Badges 2.0 as 1EdTech publishes it, not only as our outside
// issuer shapes it: the examples of the specification's pages and the image its validator's
// tests bake, copied under tests/fixtures/ob2 (see its README), hosted at their own addresses on
// the stand-in web.

const json = (body: unknown) => ({ status: 200, contentType: "application/json", body: JSON.stringify(body) });
/**
 * The assertion the published SVG bakes, which its issuer hosts at the `verify` address, with the
 * BadgeClass and Profile it embeds, which a verifier reads again from their own addresses.
 */
const svgAssertion = JSON.parse(/<!\[CDATA\[([\s\S]*?)\]\]>/.exec(bakedSvg)![1]!) as {
  id: string;
  badge: { id: string; issuer: { id: string } };
};

async function publishExamples() {
  await publish({
    [assertion.id]: json(assertion),
    [badgeClass.id]: json(badgeClass),
    [issuer.id]: json(issuer),
    [svgAssertion.id]: json(svgAssertion),
    [svgAssertion.badge.id]: json(svgAssertion.badge),
    [svgAssertion.badge.issuer.id]: json(svgAssertion.badge.issuer),
  });
}

const checksOf = (outcome: Awaited<ReturnType<typeof verifyAsImport>>) =>
  outcome.checks.map((check) => [check.name, check.passed]);

describe("Open Badges 2.0, 1EdTech's published examples", () => {
  it("reads the Assertion example as a hosted badge: its copy, BadgeClass and Issuer from their addresses", async () => {
    await publishExamples();
    // The example's recipient is a salted hash of an address the page never names: it matches
    // none of this person's, which is the reason given, after every other check passed.
    const outcome = await verifyAsImport(asText(assertion));
    expect(outcome).toMatchObject({ status: "refused", format: "Open Badges 2.0, hosted", reason: OTHER_ADDRESS });
    expect(checksOf(outcome)).toEqual([
      ["Format", true],
      ["Hosted copy", true],
      ["Issuer", true],
      ["Revocation", true],
      ["Dates", false],
      ["Recipient", false],
    ]);
    expect(outcome.checks.find((check) => check.name === "Dates")?.detail).toContain("2017-06-30");
  });

  it("reads the Assertion example baked into the validator's test image", async () => {
    await publishExamples();
    const png = await bakedPng(JSON.stringify(assertion), false, "published");
    const outcome = await verifyAsImport(asFile(png, "beths-robot-badge.png"));
    expect(outcome).toMatchObject({ status: "refused", container: "PNG", reason: OTHER_ADDRESS });
    expect(checksOf(outcome).slice(0, 4)).toEqual([
      ["Format", true],
      ["Hosted copy", true],
      ["Issuer", true],
      ["Revocation", true],
    ]);
  });

  it("accepts the baking page's SVG for its recipient, alice@example.org, and names the badge as published", async () => {
    await publishExamples();
    const outcome = await verifyAsImport(asFile(bakedSvg, "badge.svg"), { addresses: ["alice@example.org"] });
    expect(outcome).toMatchObject({ status: "verified", format: "Open Badges 2.0, hosted", container: "SVG" });
    expect(outcome.status !== "refused" && outcome.badge).toMatchObject({
      name: "3-D Printmaster",
      issuerName: "Example Maker Society",
      issuerIdentity: "example.org",
      date: "2016-12-31",
    });
  });
});
