import { OB_CONTEXT, VC_V2_CONTEXT } from "./contexts.server.ts";
import { sign, xsdDateTime } from "./data-integrity.server.ts";
import { organizationDid, personDid, type Issuing } from "./issuer.server.ts";
import { personKeyOwner, signingKeyFor, type RegisteredKey } from "./keys.server.ts";

/** Who signs an endorsement: the person themselves, or an organisation one of its admins speaks for. */
export type Endorser =
  | { kind: "person"; userId: string; name: string }
  | { kind: "organization"; organizationId: string; name: string; domain: string | null };

export const endorsementUrl = (origin: string, id: string) => `${origin}/endorsements/${id}`;
export const endorsementPath = (id: string) => `/endorsements/${id}`;

/**
 * Signs the Open Badges 3.0 EndorsementCredential of an endorsement (decision 072): its subject
 * is the endorsed achievement's `urn:uuid:` (the `achievement.id` of its credential), the comment
 * is `endorsementComment`, and the issuer is the endorser's did:web (a person's under
 * `people:`, an organisation's under `orgs:`). Not revocable: it carries no status entry. Reads
 * nothing: the caller read the signer's newest key (`latestKey`) and stores `register` with it.
 */
export async function signEndorsement(
  issuing: Issuing,
  {
    id,
    achievementId,
    achievementTitle,
    comment,
    endorser,
    latestKey,
  }: {
    id: string;
    achievementId: string;
    achievementTitle: string;
    comment: string;
    endorser: Endorser;
    latestKey?: RegisteredKey;
  },
) {
  const person = endorser.kind === "person";
  const did = person ? personDid(issuing, endorser.userId) : organizationDid(issuing, endorser.organizationId);
  const keyOwner = person ? personKeyOwner(endorser.userId) : endorser.organizationId;
  const { key, register } = await signingKeyFor(issuing.secret, keyOwner, did, latestKey);
  const issuedAt = new Date();
  const credential = {
    "@context": [VC_V2_CONTEXT, OB_CONTEXT],
    id: endorsementUrl(issuing.origin, id),
    type: ["VerifiableCredential", "EndorsementCredential"],
    name: `Endorsement of ${achievementTitle}`,
    issuer: {
      id: did,
      type: ["Profile"],
      name: endorser.name,
      ...(!person && endorser.domain ? { url: `https://${endorser.domain}` } : {}),
    },
    validFrom: xsdDateTime(issuedAt),
    credentialSubject: {
      id: `urn:uuid:${achievementId}`,
      type: ["EndorsementSubject"],
      endorsementComment: comment,
    },
  };
  return { json: JSON.stringify(await sign(credential, key, issuedAt)), register, issuedAt };
}
