import { Link } from "@remix-run/react";
import Download from "lucide-react/icons/download";
import ShieldCheck from "lucide-react/icons/shield-check";
import Wallet from "lucide-react/icons/wallet";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";

// The actions of a credential-backed achievement on the person's own /passport. They stand in the
// achievement's form (which carries its id), so 'Add to wallet' posts the page's own intent, with
// or without JavaScript. A lazy chunk (/passport's first load budget): the server's markup works
// as plain HTML until it arrives.

/** The Open Badges credential behind an achievement: its JSON file, its verification page, and the wallet. */
export function CredentialLinks({ id, title }: { id: string; title: string }) {
  return (
    <>
      <SubmitButton intent="add-to-wallet" size="sm" variant="ghost" aria-label={`Add to wallet: ${title}`}>
        <Wallet aria-hidden /> Add to wallet
      </SubmitButton>
      <a
        href={`/credentials/${id}/download`}
        download
        aria-label={`Download credential for ${title}`}
        className={buttonVariants({ size: "sm", variant: "ghost" })}
      >
        <Download aria-hidden /> Download credential
      </a>
      <Link
        to={`/credentials/${id}`}
        aria-label={`Verify ${title}`}
        className={buttonVariants({ size: "sm", variant: "ghost" })}
      >
        <ShieldCheck aria-hidden /> Verify
      </Link>
    </>
  );
}
