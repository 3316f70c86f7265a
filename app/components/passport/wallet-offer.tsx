import { QrCodeImage } from "#app/components/qr-code.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import type { QrCode } from "#app/utils/qr-code.ts";
import { NewCodeOrClose, PanelOrDialog } from "./panel-or-dialog.tsx";

// 'Add to wallet' (issue 31, decision 064): the one-time exchange a person opened on /passport,
// as a QR code for the Learner Credential Wallet on a phone and as a link on the phone itself.
// A lazy chunk of its own: /passport's first load carries none of it.

/** An exchange as /passport shows it (`?wallet=`), built by the route's loader. */
export type WalletOfferView = {
  achievementId: string;
  title: string;
  state: "open" | "used" | "expired";
  /** The wallet's deep link and its QR code, while the exchange can be answered. */
  link: string | null;
  qr: QrCode | null;
  /** The OpenID4VCI credential offer made with it (decision 065), while it can be redeemed. */
  openid4vci: { link: string; qr: QrCode; txCode: string } | null;
  /** This page without the exchange. */
  closeHref: string;
};

const TITLE = "Add to wallet";

/** A panel from the server (no JavaScript), a dialog once the page runs in the browser. */
export function WalletOffer({ offer }: { offer: WalletOfferView }) {
  return (
    <PanelOrDialog id="wallet" title={TITLE} closeHref={offer.closeHref}>
      <OfferBody offer={offer} />
    </PanelOrDialog>
  );
}

function OfferBody({ offer }: { offer: WalletOfferView }) {
  return (
    <div className="grid justify-items-start gap-4">
      {offer.link && offer.qr ? (
        <>
          <p className="text-sm text-muted-foreground">
            Scan this QR code with the Learner Credential Wallet app to add “{offer.title}” to your wallet. The wallet
            receives the credential issued to its own key.
          </p>
          <QrCodeImage qr={offer.qr} label={`QR code to add ${offer.title} to the Learner Credential Wallet`} />
          <a href={offer.link} className={buttonVariants({ size: "sm" })}>
            Open in the Learner Credential Wallet
          </a>
          <p className="text-sm text-muted-foreground">
            On your phone, open the link instead. The code works once, for 15 minutes.
          </p>
        </>
      ) : (
        <p role="status" className="text-sm">
          {offer.state === "used"
            ? `This code for “${offer.title}” was already used by a wallet.`
            : `This code for “${offer.title}” has expired: a code works for 15 minutes.`}{" "}
          Get a new one to add it again.
        </p>
      )}
      {offer.openid4vci ? <OtherWallets title={offer.title} offer={offer.openid4vci} /> : null}
      <NewCodeOrClose intent="add-to-wallet" achievementId={offer.achievementId} closeHref={offer.closeHref} />
    </div>
  );
}

/** The OpenID4VCI credential offer (decision 065): for the wallets that speak OpenID4VCI, with its transaction code. */
function OtherWallets({ title, offer }: { title: string; offer: NonNullable<WalletOfferView["openid4vci"]> }) {
  return (
    <section aria-labelledby="openid4vci-title" className="grid justify-items-start gap-4 border-t pt-4">
      <h3 id="openid4vci-title" className="font-semibold">
        Other wallets (OpenID4VCI)
      </h3>
      <p className="text-sm text-muted-foreground">
        A wallet that supports OpenID for Verifiable Credential Issuance can scan this QR code instead.
      </p>
      <QrCodeImage qr={offer.qr} label={`QR code to add ${title} to an OpenID4VCI wallet`} />
      <a href={offer.link} className={buttonVariants({ size: "sm", variant: "outline" })}>
        Open in an OpenID4VCI wallet
      </a>
      <p className="text-sm">
        When the wallet asks for a transaction code, enter{" "}
        <strong className="font-mono text-base tracking-widest">{offer.txCode}</strong>. The offer works once, for 10
        minutes.
      </p>
    </section>
  );
}
