import { Link } from "@remix-run/react";
import ArrowLeft from "lucide-react/icons/arrow-left";
import type { ReactNode } from "react";
import { buttonVariants } from "#app/components/ui/button.tsx";

/** The heading of a page under the own passport (import, endorsements): the way back, the title, what it is for. */
export function PassportSubpageHeader({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="grid gap-2">
      <Link to="/passport" className={buttonVariants({ variant: "ghost", size: "sm", className: "w-fit" })}>
        <ArrowLeft aria-hidden /> My passport
      </Link>
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <p className="text-muted-foreground">{children}</p>
    </div>
  );
}
