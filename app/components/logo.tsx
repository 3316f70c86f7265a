import { Link } from "@remix-run/react";
import BookUser from "lucide-react/icons/book-user";
import { Badge } from "#app/components/ui/badge.tsx";
import { PRODUCT_NAME } from "#app/utils/constants.ts";

export function Logo({ to = "/" }: { to?: string }) {
  return (
    <div className="flex items-center gap-2">
      <Link to={to} className="flex items-center gap-2 rounded-md font-semibold tracking-tight">
        <span className="grid size-8 place-items-center rounded-lg bg-primary text-primary-foreground">
          <BookUser className="size-5" aria-hidden />
        </span>
        {/* The name gives way on the narrowest phones; the link keeps it as its accessible name. */}
        <span className="text-base whitespace-nowrap max-[379px]:sr-only">{PRODUCT_NAME}</span>
      </Link>
      <Badge variant="secondary">Beta</Badge>
    </div>
  );
}

/** The plain top bar of pages outside the signed-in area: just the logo. */
export function LogoHeader() {
  return (
    <header className="border-b print:hidden">
      <div className="mx-auto flex h-16 max-w-3xl items-center px-4">
        <Logo />
      </div>
    </header>
  );
}
