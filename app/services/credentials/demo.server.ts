import { acceptedWithoutCredential } from "#db/queries/credentials/issuance.ts";
import { putDevWebDocument } from "#db/queries/dev-stand-ins.ts";
import { didConfigurationUrl, domainLinkageConfiguration } from "./domain-linkage.server.ts";
import type { Issuing } from "./issuer.server.ts";
import { issueLate } from "./late-issuance.server.ts";

/** More than the demo world gives; the seed runs again rather than page. */
const MAX_ACHIEVEMENTS = 100;

/**
 * The credentials of the local demo world (issue 29). The seed (db/seed.ts) writes the demo
 * organisation's achievements as rows, accepted already, so none went through `answer`, which
 * issues a credential on acceptance. This issues theirs as a late issuance does (the same reads,
 * signing and writes as `answer`), one achievement at a time so that each takes the next status
 * entry, without the picture (the recipient's consent, off by default). Then the organisation's
 * did-configuration.json goes on its domain through the web stand-in (/dev/web.json), as its
 * admin would publish it. Running it again issues only what is missing, and signs the
 * did-configuration.json anew.
 */
export async function issueDemoCredentials(signer: Issuing, { organizationId, domain }: DemoIssuer) {
  const { db } = signer;
  const achievementIds = await acceptedWithoutCredential(db, organizationId, MAX_ACHIEVEMENTS);
  for (const achievementId of achievementIds) await issueLate(signer, achievementId, { includeMedia: false });
  const configuration = await domainLinkageConfiguration(signer, organizationId, domain);
  await putDevWebDocument(db, {
    url: didConfigurationUrl(domain),
    contentType: "application/json",
    body: JSON.stringify(configuration),
  });
  return { issued: achievementIds.length };
}

type DemoIssuer = { organizationId: string; domain: string };
