import { Form, Link } from "@remix-run/react";
import { IssuerIdentityLine } from "#app/components/credentials/issuer-identity.tsx";
import { ImportChecks } from "#app/components/passport/import-checks.tsx";
import { QrCodeImage } from "#app/components/qr-code.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import type { ImportOutcome } from "#app/services/imports/import-result.ts";
import type { IssuerIdentity } from "#app/utils/issuer-identity.ts";
import type { QrCode } from "#app/utils/qr-code.ts";

// What checking an import found (issue 32), and the proof a credential issued to a wallet DID
// asks for (issue 43, decision 099): the import page's result, from its action or its loader.

export type CheckedImport = { checked: ImportOutcome; nonce: string | null; issuerIdentity: IssuerIdentity | null };

/** The checks, and what may follow: 'Add to passport', or 'Prove with my wallet'. */
export function ImportResultCard({ checked: { checked, nonce, issuerIdentity } }: { checked: CheckedImport }) {
  const refused = checked.status === "refused";
  const provable = refused && Boolean(checked.walletDid);
  return (
    <Card aria-labelledby="import-result-title">
      <CardHeader>
        <CardTitle as="h2" id="import-result-title">
          {refused ? "This cannot be imported" : checked.badge.name}
        </CardTitle>
        <CardDescription>
          {refused
            ? provable && nonce
              ? "Not yet: prove that the wallet it was issued to is yours."
              : "Nothing was saved."
            : `Issued by ${checked.badge.issuerName} (${checked.badge.issuerIdentity})`}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {/* Who stands behind the issuer's name, as the passport will say it (issue 43). */}
        {issuerIdentity ? <IssuerIdentityLine identity={issuerIdentity} imported /> : null}
        <ImportChecks outcome={checked} />
        {nonce && (!refused || provable) ? (
          <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-center gap-3">
            <input type="hidden" name="nonce" value={nonce} />
            {refused ? (
              <SubmitButton intent="prove-wallet" pendingText="Opening...">
                Prove with my wallet
              </SubmitButton>
            ) : (
              <SubmitButton intent="add-import" pendingText="Adding...">
                Add to passport
              </SubmitButton>
            )}
            <Link to="/passport" className={buttonVariants({ variant: "outline" })}>
              Cancel
            </Link>
          </Form>
        ) : null}
      </CardContent>
    </Card>
  );
}

export type ImportProof = { state: "open" | "expired"; nonce: string; link: string | null; qr: QrCode | null };

/** The wallet's side of the proof: its QR code and link while open, then 'check again'. */
export function ImportWalletProofCard({ proof, href }: { proof: ImportProof; href: string }) {
  return (
    <Card aria-labelledby="import-proof-title">
      <CardHeader>
        <CardTitle as="h2" id="import-proof-title">
          Prove with my wallet
        </CardTitle>
        <CardDescription>
          The credential was issued to a wallet’s DID. Sign with that wallet to show it is yours; nothing else is
          shared.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid justify-items-start gap-4">
        {proof.link && proof.qr ? (
          <>
            <p className="text-sm text-muted-foreground">
              Scan this QR code with the Learner Credential Wallet app, or open the link on your phone. The code works
              once, for 15 minutes.
            </p>
            <QrCodeImage qr={proof.qr} label="QR code to prove your wallet with the Learner Credential Wallet" />
            <a href={proof.link} className={buttonVariants({ size: "sm" })}>
              Open in the Learner Credential Wallet
            </a>
            <Link to={href} replace preventScrollReset className={buttonVariants({ size: "sm", variant: "outline" })}>
              I have signed: check again
            </Link>
          </>
        ) : (
          <>
            <p role="status" className="text-sm">
              This code has expired: a code works for 15 minutes.
            </p>
            <Form method="post" encType="multipart/form-data">
              <input type="hidden" name="nonce" value={proof.nonce} />
              <SubmitButton intent="prove-wallet" size="sm" pendingText="Opening...">
                Get a new code
              </SubmitButton>
            </Form>
          </>
        )}
      </CardContent>
    </Card>
  );
}
