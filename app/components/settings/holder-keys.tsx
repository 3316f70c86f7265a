import { Form, Link } from "@remix-run/react";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { formatLongDate } from "#app/utils/dates.ts";

// Settings' 'Wallet keys' (issue 31, decision 066): the wallet DIDs the person's credentials were
// issued to, each with its credentials, and a way to forget one. A lazy chunk: /settings' first
// load carries none of it.

/** A DID with the credentials issued to it, as Settings' loader reads them (dates as ISO strings). */
export type HolderKeysView = {
  keys: {
    did: string;
    lastIssuedAt: string;
    credentials: { credentialId: string; title: string | null; organizationName: string | null; issuedAt: string }[];
  }[];
  shown: number;
  total: number;
};

export function HolderKeys({ holderKeys }: { holderKeys: HolderKeysView }) {
  return (
    <Card id="wallet-keys">
      <CardHeader>
        <CardTitle as="h2">Wallet keys</CardTitle>
        <CardDescription>
          The keys (DIDs) of the wallets your credentials were issued to, with ‘Add to wallet’ or ‘Accept with my
          wallet’. While a key is here, a credential issued to it downloads in that key’s name. Forget a key and
          downloads go back to your e-mail address; copies already in a wallet, and acceptances you signed, stay as they
          are.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {holderKeys.keys.length === 0 ? (
          <p className="text-sm text-muted-foreground">No credential has been issued to a wallet yet.</p>
        ) : (
          <ul className="grid gap-4" aria-label="Wallet keys">
            {holderKeys.keys.map((key) => (
              <li key={key.did} className="grid gap-2 rounded-lg border p-4">
                <code className="text-sm break-all">{key.did}</code>
                <ul className="grid gap-1 text-sm" aria-label={`Credentials issued to ${key.did}`}>
                  {key.credentials.map((credential) => (
                    <li key={credential.credentialId}>
                      <Link to={`/credentials/${credential.credentialId}`} className="underline">
                        {credential.title ?? "Credential"}
                      </Link>
                      {credential.organizationName ? ` from ${credential.organizationName}` : null}, issued{" "}
                      {formatLongDate(credential.issuedAt.slice(0, 10))}
                    </li>
                  ))}
                </ul>
                <Form method="post" className="justify-self-end">
                  <input type="hidden" name="did" value={key.did} />
                  <SubmitButton
                    intent="forget-holder-key"
                    size="sm"
                    variant="outline"
                    aria-label={`Forget this key: ${key.did}`}
                    pendingText="Forgetting..."
                  >
                    Forget this key
                  </SubmitButton>
                </Form>
              </li>
            ))}
          </ul>
        )}
        {holderKeys.total > holderKeys.shown ? (
          <p className="text-sm text-muted-foreground">
            Showing the newest {holderKeys.shown} of {holderKeys.total} credentials issued to wallets.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
