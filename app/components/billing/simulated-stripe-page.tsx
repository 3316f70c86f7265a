import type { ReactNode } from "react";
import { LogoHeader } from "#app/components/logo.tsx";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { MEMBER_PRICE_LABEL, SUBSCRIPTION_PRODUCT } from "#app/utils/constants.ts";

/**
 * The frame of the local stand-ins for Stripe's pages (checkout, customer portal): what the
 * subscription is, for whom, at what price, and the page's own status and buttons.
 */
export function SimulatedStripePage({
  title,
  description,
  memberName,
  organizationName,
  details,
  children,
  footer,
}: {
  title: string;
  description: ReactNode;
  memberName: string;
  organizationName: string;
  /** More rows of the summary, after the price. */
  details?: ReactNode;
  children?: ReactNode;
  footer: ReactNode;
}) {
  return (
    <div className="flex min-h-dvh flex-col">
      <LogoHeader />
      <main className="mx-auto grid w-full max-w-md flex-1 content-start gap-4 px-4 py-10">
        <Card>
          <CardHeader>
            <CardTitle as="h1" className="text-2xl">
              {title}
            </CardTitle>
            <CardDescription>{description}</CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
              <dt className="text-muted-foreground">Product</dt>
              <dd>{SUBSCRIPTION_PRODUCT}</dd>
              <dt className="text-muted-foreground">Member</dt>
              <dd className="break-words">{memberName}</dd>
              <dt className="text-muted-foreground">Organisation</dt>
              <dd className="break-words">{organizationName}</dd>
              <dt className="text-muted-foreground">Price</dt>
              <dd className="font-semibold">{`${MEMBER_PRICE_LABEL} per month`}</dd>
              {details}
            </dl>
            {children}
          </CardContent>
          <CardFooter>{footer}</CardFooter>
        </Card>
      </main>
    </div>
  );
}
