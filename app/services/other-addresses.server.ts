import { OTHER_ADDRESS_LINK_HOURS } from "#app/utils/constants.ts";
import { AlreadySaved, NotFound, Refusal } from "#app/utils/domain-errors.server.ts";
import { createMailer, otherAddressEmail } from "#app/utils/email.server.ts";
import { emailFingerprint, log, securityEvent } from "#app/utils/log.server.ts";
import { ADDRESS_LIMIT_MESSAGE, consumeSubjectRateLimit, consumeUserRateLimit } from "#app/utils/rate-limit.server.ts";
import { tokenHashOf } from "#app/utils/token-hash.server.ts";
import type { Toast } from "#app/utils/toast-message.ts";
import { runPart } from "#db/queries/batch-parts.ts";
import {
  additionPart,
  confirmOtherAddress,
  deleteOtherAddressOf,
  findByTokenHash,
  findOtherAddressOf,
  insertOtherAddress,
  MAX_OTHER_ADDRESSES,
  normalizedAddress,
  otherAddressesPart,
  replaceLink,
} from "#db/queries/other-addresses.ts";
import { newInviteCode } from "#db/schema.ts";
import type { ServiceContext } from "./context.server.ts";

// A person's other e-mail addresses (issue 32, decision 068): added in Settings, confirmed by a
// link mailed to the address and opened by the same person, signed in; removed at will. Confirmed
// ones only match imported credentials to their owner: signing in stays with the account's address.

/** Where the mailed link leads (a GET shows the page; only its form's POST confirms). */
export const CONFIRM_ADDRESS_PATH = "/settings/addresses/confirm";
const LINK_HOURS = OTHER_ADDRESS_LINK_HOURS;
const HOUR_MS = 60 * 60 * 1000;
/** A second add or resend this soon after a link was mailed is the same request (a double submit). */
const SAME_REQUEST_MS = 60 * 1000;

export const REFUSALS = {
  signInAddress: "This is already your sign-in address.",
  alreadyConfirmed: "You have already confirmed this address.",
  cap: `You can add up to ${MAX_OTHER_ADDRESSES} other addresses. Remove one to add another.`,
  tooManyLinks: "You have asked for many links in the last hour. Please wait an hour and try again.",
  notSent: "The email could not be sent. Please try again in a few minutes.",
} as const;

/** Who adds or resends, and where the link points. */
type Owner = { userId: string; appUrl: string };

/** The person's other addresses as Settings shows them: a part of the page's batch. */
export function otherAddressesListPart(context: Pick<ServiceContext, "db">, userId: string) {
  const part = otherAddressesPart(context.db, userId);
  return {
    statements: part.statements,
    read: (results: readonly unknown[]) =>
      part.read(results).map((row) => ({
        id: row.id,
        address: row.address,
        sentAt: row.sentAt.getTime(),
        expiresAt: row.expiresAt.getTime(),
        confirmedAt: row.confirmedAt?.getTime() ?? null,
      })),
  };
}

const sentToast = (address: string): Toast => ({
  title: "Check your inbox",
  description: `We sent a link to ${address}. Open it while signed in here to confirm the address. It works once, for ${LINK_HOURS} hours.`,
});

/** A refusal of the address typed (shown under its field). */
const refuse = (title: string, message: string) =>
  new Refusal({ title, description: message }, 400, { address: [message] });

/**
 * 'Add address': stores the address as pending and mails it a link. The person's own sign-in
 * address, one they already confirmed, or one past the cap is refused; one they added before gets
 * a new link (unless the last one went out within the minute: a double submit, answered alike).
 * Whether someone else holds the address is not told here (decision 068): only the link's page,
 * seen by whoever reads that mailbox, says so.
 */
export async function addOtherAddress(
  context: ServiceContext,
  { address: typed, title, ...owner }: Owner & { address: string; title: string },
) {
  const address = normalizedAddress(typed);
  const now = new Date();
  const { signInAddress, existing, held } = await runPart(context.db, additionPart(context.db, owner.userId, address));
  if (address === signInAddress) throw refuse(title, REFUSALS.signInAddress);
  if (existing?.confirmedAt) throw refuse(title, REFUSALS.alreadyConfirmed);
  if (existing) return resend(context, { ...owner, id: existing.id, address, sentAt: existing.sentAt, title }, now);
  if (held >= MAX_OTHER_ADDRESSES) throw refuse(title, REFUSALS.cap);

  await limitLinks(context, owner.userId, address, title);
  const { token, link } = await newLink(now);
  const id = await insertOtherAddress(context.db, { userId: owner.userId, address, ...link });
  if (!id) {
    // Nothing added: the same address added at the same moment (a double submit), or the cap reached meanwhile.
    const again = await runPart(context.db, additionPart(context.db, owner.userId, address));
    if (again.existing) throw new AlreadySaved(sentToast(address));
    throw refuse(title, REFUSALS.cap);
  }
  await mailLink(context, { address, token, appUrl: owner.appUrl, title });
  return sentToast(address);
}

/** 'Resend link' for one of the person's pending addresses (another's, or a confirmed one: not found). */
export async function resendLink(
  context: ServiceContext,
  { id, title, ...owner }: Owner & { id: string; title: string },
) {
  const row = await findOtherAddressOf(context.db, { userId: owner.userId, id });
  if (!row) throw new NotFound();
  return resend(context, { ...owner, id, address: row.address, sentAt: row.sentAt, title }, new Date());
}

async function resend(
  context: ServiceContext,
  { id, address, sentAt, title, ...owner }: Owner & { id: string; address: string; sentAt: Date; title: string },
  now: Date,
) {
  if (now.getTime() - sentAt.getTime() < SAME_REQUEST_MS) throw new AlreadySaved(sentToast(address));
  await limitLinks(context, owner.userId, address, title);
  const { token, link } = await newLink(now);
  if (!(await replaceLink(context.db, { userId: owner.userId, id, ...link }))) throw new NotFound();
  await mailLink(context, { address, token, appUrl: owner.appUrl, title });
  return sentToast(address);
}

/** A new link's token (128 random bits, for the mail only) and what is stored of it. */
async function newLink(now: Date) {
  const token = newInviteCode();
  const link = {
    tokenHash: await tokenHashOf(token),
    sentAt: now,
    expiresAt: new Date(now.getTime() + LINK_HOURS * HOUR_MS),
  };
  return { token, link };
}

/** Links mailed: at most 10 an hour per person, and 3 an hour per address from anyone (with sign-up's). */
async function limitLinks(context: ServiceContext, userId: string, address: string, title: string) {
  let refusal: string | null = null;
  const fingerprint = await emailFingerprint(address);
  if (!(await consumeUserRateLimit(context.db, userId, "other-address-mail"))) refusal = REFUSALS.tooManyLinks;
  else if (!(await consumeSubjectRateLimit(context.db, "confirmation-mail", fingerprint)))
    refusal = ADDRESS_LIMIT_MESSAGE;
  if (!refusal) return;
  securityEvent("auth.failed", {
    reason: "rate limited",
    action: "other-address-mail",
    requestId: context.requestId,
    userId,
    email: fingerprint,
  });
  throw new Refusal({ title, description: refusal }, 429);
}

async function mailLink(
  context: ServiceContext,
  { address, token, appUrl, title }: { address: string; token: string; appUrl: string; title: string },
) {
  const confirmUrl = `${appUrl}${CONFIRM_ADDRESS_PATH}?token=${encodeURIComponent(token)}`;
  try {
    await createMailer(context.env, context.db).send(otherAddressEmail({ address, confirmUrl, hours: LINK_HOURS }));
  } catch (error) {
    // The address stays pending: 'Resend link' tries again.
    log("error", "mail not sent", { error: error instanceof Error ? error.message : String(error) });
    throw new Refusal({ title, description: REFUSALS.notSent }, 400);
  }
}

/** 'Remove' one of the person's addresses (another's, or one removed since: not found). The address removed. */
export async function removeOtherAddress(context: ServiceContext, input: { userId: string; id: string }) {
  const address = await deleteOtherAddressOf(context.db, input);
  if (!address) throw new NotFound();
  return address;
}

/** What a confirmation link is worth to the signed-in person who opened it. */
export type LinkState =
  | { kind: "invalid" }
  | { kind: "another-account" }
  | { kind: "expired" | "taken" | "ready" | "confirmed"; address: string; id: string };

/**
 * Reads the link without using it (the page a GET shows): unknown or replaced by a newer link
 * ("invalid"), added by another account, already confirmed, expired, held by someone else, or
 * ready to confirm.
 */
export async function readLink(
  context: Pick<ServiceContext, "db">,
  { userId, token }: { userId: string; token: string },
) {
  const row = token ? await findByTokenHash(context.db, await tokenHashOf(token)) : null;
  if (!row) return { kind: "invalid" } satisfies LinkState;
  if (row.userId !== userId) return { kind: "another-account" } satisfies LinkState;
  const { address, id } = row;
  if (row.confirmedAt) return { kind: "confirmed", address, id } satisfies LinkState;
  if (row.expiresAt.getTime() <= Date.now()) return { kind: "expired", address, id } satisfies LinkState;
  if (row.takenElsewhere) return { kind: "taken", address, id } satisfies LinkState;
  return { kind: "ready", address, id } satisfies LinkState;
}

/**
 * 'Confirm' on the link's page: confirms the address for the signed-in person if the link is
 * theirs, unused, unexpired and the address nobody else's. The link's state afterwards, and
 * whether this call confirmed it (a second post finds it "confirmed" and changes nothing).
 */
export async function confirmLink(context: ServiceContext, { userId, token }: { userId: string; token: string }) {
  const confirmed = token
    ? await confirmOtherAddress(context.db, { userId, tokenHash: await tokenHashOf(token), now: new Date() })
    : false;
  const state: LinkState = await readLink(context, { userId, token });
  if (!confirmed && state.kind !== "confirmed") {
    securityEvent("auth.failed", {
      reason: `other address not confirmed: ${state.kind}`,
      requestId: context.requestId,
      userId,
    });
  }
  return { state, confirmedNow: confirmed };
}
