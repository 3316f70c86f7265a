import {
  deleteDomainClaim,
  domainVerifiedElsewhere,
  dueDomainClaims,
  DUE_DOMAINS_PAGE,
  findDomainClaim,
  insertDomainClaim,
  listDomainClaims,
  markDomainVerified,
  MAX_DOMAINS_PER_ORGANIZATION,
  recordDomainCheck,
  adminContactsOf,
  type DomainClaim,
} from "#db/queries/organization-domains.ts";
import { findOrganization, organizationNameKey } from "#db/queries/organizations.ts";
import { requireOrganizationAdmin } from "#app/utils/authorization.server.ts";
import { NotFound, Refusal } from "#app/utils/domain-errors.server.ts";
import { createMailer, domainLapsedEmail } from "#app/utils/email.server.ts";
import { log } from "#app/utils/log.server.ts";
import { invalidateIssuerIdentities } from "#app/utils/passport-cache.server.ts";
import { consumeUserRateLimit, RATE_LIMIT_MESSAGE } from "#app/utils/rate-limit.server.ts";
import type { ServiceContext } from "./context.server.ts";
import { domainLinkageConfiguration } from "./credentials/domain-linkage.server.ts";
import { issuing } from "./credentials/issuer.server.ts";
import { lookupTxt, resolverFor, type Resolve } from "./dns.server.ts";
import { notify } from "./notifications.server.ts";

/**
 * Issuer domains (decision 055): an organisation claims a domain, publishes a TXT record with a
 * token only it was shown, and is verified once a DNS lookup finds it. Verified domains are
 * looked up again each day; the third failure in a row lapses one and tells the admins.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Failed daily checks in a row after which a verified domain lapses. */
const CHECKS_BEFORE_LAPSE = 3;
/** Pages of due domains one daily run works through: 10,000 verified domains a day. */
const MAX_DUE_PAGES_PER_RUN = 20;

export const recordNameOf = (domain: string) => `_career-passport.${domain}`;
export const recordValueOf = (token: string) => `career-passport-verification=${token}`;

const DNS_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A domain as typed ("Acme.example", "https://acme.example/about", "bücher.example.") in the
 * form it is stored and looked up in: the URL API's hostname (lowercase, punycode), which must
 * be a public DNS name of at least two labels, not an IP address.
 */
export function parseDomain(input: string): string | null {
  const trimmed = input.trim();
  if (!trimmed || trimmed.length > 300) return null;
  let hostname: string;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
    if (url.username || url.password || url.port) return null;
    hostname = url.hostname.replace(/\.$/, "");
  } catch {
    return null;
  }
  const labels = hostname.split(".");
  if (hostname.length > 253 || labels.length < 2 || !labels.every((label) => DNS_LABEL.test(label))) return null;
  // The last label of a name is never all digits: that is an IPv4 address.
  if (/^\d+$/.test(labels.at(-1)!)) return null;
  return hostname;
}

function newToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_");
}

const guard = (context: ServiceContext, adminId: string, organizationId: string | null, reason: string) =>
  requireOrganizationAdmin(context, organizationId, { userId: adminId, reason });

/** The organisation's domains, for its admin. */
export async function domainsOf(context: ServiceContext, adminId: string, organizationId: string | null) {
  await guard(context, adminId, organizationId, "domains read by a non-admin");
  return listDomainClaims(context.db, organizationId!);
}

export async function addDomain(
  context: ServiceContext,
  adminId: string,
  organizationId: string | null,
  input: string,
) {
  await guard(context, adminId, organizationId, "domain added by a non-admin");
  const domain = parseDomain(input);
  if (!domain) throw new Refusal(addFailed(INVALID_DOMAIN), 400, { domain: [INVALID_DOMAIN] });
  const claims = await listDomainClaims(context.db, organizationId!);
  if (claims.some((claim) => claim.domain === domain)) return { domain, added: false };
  if (claims.length >= MAX_DOMAINS_PER_ORGANIZATION)
    throw new Refusal(addFailed(`An organisation can add at most ${MAX_DOMAINS_PER_ORGANIZATION} domains.`));
  if (await domainVerifiedElsewhere(context.db, organizationId!, domain)) throw new Refusal(addFailed(TAKEN));
  const added = await insertDomainClaim(context.db, { organizationId: organizationId!, domain, token: newToken() });
  return { domain, added };
}

const INVALID_DOMAIN = "Enter a domain name, such as acme.example.";
const TAKEN = "This domain is verified by another organisation.";
const addFailed = (description: string) => ({
  title: "Could not add the domain",
  description,
  variant: "destructive" as const,
});
const notVerified = (description: string) => ({
  title: "Domain not verified",
  description,
  variant: "destructive" as const,
});

/**
 * What a lookup says of a claim: null when the record is there, else what was found instead,
 * in the words the page shows.
 */
async function findRecord(resolve: Resolve, claim: Pick<DomainClaim, "domain" | "token">) {
  const name = recordNameOf(claim.domain);
  const lookup = await lookupTxt(resolve, name);
  if (!lookup.ok) return lookup.reason;
  if (lookup.values.includes(recordValueOf(claim.token))) return null;
  const ours = lookup.values.filter((value) => value.startsWith("career-passport-verification="));
  if (ours.length === 0 && lookup.values.length === 0) return `No TXT record found at ${name}.`;
  const found = (ours.length ? ours : lookup.values).slice(0, 3).map((value) => `"${value.slice(0, 120)}"`);
  return `The record's value does not match. Found: ${found.join(", ")}.`;
}

/** Looks the claim's record up now and marks it verified, or refuses with what was found. */
export async function verifyDomain(
  context: ServiceContext,
  adminId: string,
  organizationId: string | null,
  claimId: string,
  now = new Date(),
) {
  await guard(context, adminId, organizationId, "domain verified by a non-admin");
  if (!(await consumeUserRateLimit(context.db, adminId, "verify-domain")))
    throw new Refusal(notVerified(RATE_LIMIT_MESSAGE), 429);
  const [claim, organization] = await Promise.all([
    findDomainClaim(context.db, organizationId!, claimId),
    findOrganization(context.db, organizationId!),
  ]);
  if (!claim || !organization) throw new NotFound();
  if (await domainVerifiedElsewhere(context.db, organizationId!, claim.domain)) throw new Refusal(notVerified(TAKEN));
  const problem = await findRecord(resolverFor(context), claim);
  if (problem) throw new Refusal(notVerified(problem));
  const verified = await markDomainVerified(context.db, claim.id, {
    nameKey: organizationNameKey(organization.name),
    now,
    nextCheckAt: new Date(now.getTime() + DAY_MS),
  });
  if (!verified) throw new Refusal(notVerified(TAKEN));
  // Every passport showing the organisation (or a copycat of its name) says so at once (decision 093).
  await invalidateIssuerIdentities(context.env);
  return { domain: claim.domain };
}

export async function removeDomain(
  context: ServiceContext,
  adminId: string,
  organizationId: string | null,
  claimId: string,
) {
  await guard(context, adminId, organizationId, "domain removed by a non-admin");
  const claim = await findDomainClaim(context.db, organizationId!, claimId);
  if (!claim) return null;
  await deleteDomainClaim(context.db, organizationId!, claim.id);
  // Only a verified domain was shown on passports (decision 093).
  if (claim.status === "verified") await invalidateIssuerIdentities(context.env);
  return { domain: claim.domain };
}

/**
 * The did-configuration.json of a verified domain (DIF Well Known DID Configuration), signed now,
 * for the organisation to publish on that domain. Only the organisation's admin downloads it.
 */
export async function didConfigurationOf(
  context: ServiceContext,
  adminId: string,
  organizationId: string | null,
  claimId: string,
) {
  await guard(context, adminId, organizationId, "did-configuration asked by a non-admin");
  const claim = await findDomainClaim(context.db, organizationId!, claimId);
  const signer = issuing(context.db, context.env);
  if (claim?.status !== "verified" || !signer) throw new NotFound();
  return domainLinkageConfiguration(signer, organizationId!, claim.domain);
}

/**
 * The cron's daily check: looks up each verified domain that is due (a bounded range of the
 * due index) and records the outcome; a third failure in a row lapses the domain and tells the
 * organisation's admins by notification and e-mail. One domain's failure never stops the rest.
 */
export async function recheckDueDomains(context: ServiceContext, now: Date, resolve = resolverFor(context)) {
  let checked = 0;
  let lapsed = 0;
  try {
    // Each check moves its domain's next check a day on, so the next page holds the next ones due.
    for (let page = 0; page < MAX_DUE_PAGES_PER_RUN; page++) {
      const due = await dueDomainClaims(context.db, now, DUE_DOMAINS_PAGE);
      for (const claim of due) {
        if (await checkDomainAgain(context, resolve, claim, now)) lapsed += 1;
      }
      checked += due.length;
      if (due.length < DUE_DOMAINS_PAGE) break;
    }
  } finally {
    // One new issuer generation for the run's lapses, however many, even if the run then failed
    // (decision 093): every passport that showed a lapsed domain says so at once.
    if (lapsed > 0) await invalidateIssuerIdentities(context.env);
  }
  return { checked, lapsed };
}

/** One verified domain's daily check; true when this failure lapsed it. */
async function checkDomainAgain(
  context: ServiceContext,
  resolve: Resolve,
  claim: DomainClaim & { organizationName: string },
  now: Date,
) {
  const problem = await findRecord(resolve, claim);
  const nextCheckAt = new Date(now.getTime() + DAY_MS);
  if (!problem) {
    await recordDomainCheck(context.db, claim.id, { passed: true, now, nextCheckAt });
    return false;
  }
  const lapse = claim.failedChecks + 1 >= CHECKS_BEFORE_LAPSE;
  await recordDomainCheck(context.db, claim.id, { passed: false, now, nextCheckAt, lapse });
  // The lapse is recorded; telling the admins is a side effect that must not stop the run.
  if (lapse)
    await tellAdminsOfLapse(context, claim, problem).catch((error: unknown) =>
      log("error", "domain lapse notice failed", { domain: claim.domain, error: String(error) }),
    );
  return lapse;
}

async function tellAdminsOfLapse(
  context: ServiceContext,
  claim: DomainClaim & { organizationName: string },
  problem: string,
) {
  const admins = await adminContactsOf(context.db, claim.organizationId);
  const message = `${claim.domain} is no longer verified for ${claim.organizationName}: its DNS record was not found in ${CHECKS_BEFORE_LAPSE} daily checks in a row. ${problem} Publish the record again and verify the domain in Organisation profile.`;
  await notify(
    context,
    admins.map((admin) => ({ userId: admin.userId, title: "Domain verification lapsed", message, type: "warning" })),
  );
  const origin = context.env.APP_URL ? new URL(context.env.APP_URL).origin : null;
  const mailer = createMailer(context.env, context.db);
  for (const admin of admins) {
    try {
      await mailer.send(
        domainLapsedEmail({
          email: admin.email,
          name: admin.name,
          domain: claim.domain,
          organizationName: claim.organizationName,
          problem,
          profileUrl: origin ? new URL("/organization", origin).href : "/organization",
        }),
      );
    } catch (error) {
      log("error", "domain lapse email failed", { userId: admin.userId, domain: claim.domain, error: String(error) });
    }
  }
}
