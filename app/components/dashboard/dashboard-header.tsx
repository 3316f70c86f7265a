import { Form, Link } from "@remix-run/react";
import LogOut from "lucide-react/icons/log-out";
import Settings from "lucide-react/icons/settings";
import type { ReactNode } from "react";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";

/** Title, subtitle and the buttons both dashboards share (settings, sign out), after any extra. */
export function DashboardHeader({
  title,
  subtitle,
  actions,
}: {
  title: ReactNode;
  subtitle: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        {title}
        <p className="break-words text-muted-foreground">{subtitle}</p>
      </div>
      <div className="flex flex-wrap gap-2">
        {actions}
        <Link to="/settings" className={buttonVariants({ variant: "outline" })}>
          <Settings aria-hidden /> Settings
        </Link>
        <Form method="post" action="/auth/signout">
          <Button type="submit" variant="outline">
            <LogOut aria-hidden /> Sign Out
          </Button>
        </Form>
      </div>
    </div>
  );
}
