import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { useEffect } from "react";
import { useNavigate } from "@remix-run/react";
import { AuthCard } from "#app/components/auth-card.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { PRODUCT_NAME, REDIRECT_DELAY_MS } from "#app/utils/constants.ts";

export const meta: MetaFunction = () => [{ title: `Account deleted · ${PRODUCT_NAME}` }];

// Where a purged account lands: a word of goodbye, then home after 2 seconds.
export default function Goodbye() {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate("/"), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <AuthCard title="Account Purged" description="All of your data has been permanently deleted.">
      <meta httpEquiv="refresh" content={`${REDIRECT_DELAY_MS / 1000};url=/`} />
      <Link to="/" className={buttonVariants({ className: "w-full" })}>
        Return to Home
      </Link>
    </AuthCard>
  );
}
