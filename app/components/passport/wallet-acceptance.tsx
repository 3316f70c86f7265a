import { Link, useRevalidator } from "@remix-run/react";
import { useCallback, useEffect } from "react";
import { QrCodeImage } from "#app/components/qr-code.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import type { QrCode } from "#app/utils/qr-code.ts";
import { useHubMessages } from "#app/utils/use-hub-messages.ts";
import { NewCodeOrClose, PanelOrDialog } from "./panel-or-dialog.tsx";

// 'Accept with my wallet' (issue 31, decision 066): a pending achievement accepted by signing with
// the Learner Credential Wallet, as a QR code and a link. A lazy chunk: /passport's first load
// carries none of it.

/** An 'accept' exchange as /passport shows it (`?accept-wallet=`), built by the route's loader. */
export type WalletAcceptanceView = {
  achievementId: string;
  title: string;
  state: "open" | "accepted" | "answered" | "used" | "expired";
  /** The DID that signed, once accepted. */
  holder: string | null;
  link: string | null;
  qr: QrCode | null;
  /** This page with the exchange (to check again), and without it. */
  href: string;
  closeHref: string;
};

const TITLE = "Accept with my wallet";
/** How often an open dialog asks whether the wallet has answered, while the page has no live socket. */
const CHECK_EVERY_MS = 4000;

/** A panel from the server (no JavaScript), a dialog once the page runs in the browser. */
export function WalletAcceptance({ acceptance }: { acceptance: WalletAcceptanceView }) {
  useCheckUntilAnswered(acceptance.state === "open");
  return (
    <PanelOrDialog id="accept-wallet" title={TITLE} closeHref={acceptance.closeHref}>
      <AcceptanceBody acceptance={acceptance} />
    </PanelOrDialog>
  );
}

/**
 * While the wallet has yet to answer, the page reloads its data when the person's notification
 * socket brings news (the acceptance tells the person's own pages), when the socket (re)opens and
 * when the tab comes back; only while no socket is open does it ask every few seconds.
 */
function useCheckUntilAnswered(waiting: boolean) {
  const { revalidate, state } = useRevalidator();
  const check = useCallback(() => {
    if (document.visibilityState === "visible" && state === "idle") revalidate();
  }, [revalidate, state]);
  // News may come while an earlier reload is under way, with data from before it: reload anyway.
  const live = useHubMessages(revalidate, waiting);
  useEffect(() => {
    if (!waiting) return;
    document.addEventListener("visibilitychange", check);
    const timer = live ? undefined : setInterval(check, CHECK_EVERY_MS);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", check);
    };
  }, [waiting, live, check]);
  // Whatever came while the socket was closed.
  useEffect(() => {
    if (waiting && live) check();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once each time the socket opens
  }, [waiting, live]);
}

function AcceptanceBody({ acceptance }: { acceptance: WalletAcceptanceView }) {
  const { title, state } = acceptance;
  if (state === "accepted")
    return (
      <div className="grid justify-items-start gap-4">
        <p role="status" className="text-sm">
          You accepted “{title}” with your wallet. Its credential was issued to your wallet’s key{" "}
          <code className="break-all">{acceptance.holder}</code>, and your signature is kept as the proof of acceptance.
        </p>
        <Link to={acceptance.closeHref} replace className={buttonVariants({ size: "sm" })}>
          Done
        </Link>
      </div>
    );
  return (
    <div className="grid justify-items-start gap-4">
      {acceptance.link && acceptance.qr ? (
        <>
          <p className="text-sm text-muted-foreground">
            Scan this QR code with the Learner Credential Wallet app to accept “{title}” by signing with your wallet’s
            key. Your signature is kept as the proof that you accepted, and the credential is issued to that key.
          </p>
          <QrCodeImage qr={acceptance.qr} label={`QR code to accept ${title} with the Learner Credential Wallet`} />
          <a href={acceptance.link} className={buttonVariants({ size: "sm" })}>
            Open in the Learner Credential Wallet
          </a>
          <p className="text-sm text-muted-foreground">
            On your phone, open the link instead. The code works once, for 15 minutes.
          </p>
          <Link
            to={acceptance.href}
            replace
            preventScrollReset
            className={buttonVariants({ size: "sm", variant: "outline" })}
          >
            I have signed: check again
          </Link>
        </>
      ) : (
        <p role="status" className="text-sm">
          {state === "answered"
            ? `“${title}” was already answered.`
            : state === "used"
              ? `This code for “${title}” was already used by a wallet.`
              : `This code for “${title}” has expired: a code works for 15 minutes.`}
        </p>
      )}
      <NewCodeOrClose
        intent="accept-with-wallet"
        achievementId={acceptance.achievementId}
        closeHref={acceptance.closeHref}
        newCode={!acceptance.link && state !== "answered"}
      />
    </div>
  );
}
