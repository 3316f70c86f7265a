import { Form, Link, useLocation } from "@remix-run/react";
import ChevronLeft from "lucide-react/icons/chevron-left";
import ChevronRight from "lucide-react/icons/chevron-right";
import Search from "lucide-react/icons/search";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { formatCount } from "#app/utils/format-count.ts";

/** The current query without this list's own parameters (`{prefix}q`, `after`, `before`). */
function otherParams(search: string, prefix: string, keep: string[] = []) {
  const params = new URLSearchParams(search);
  for (const name of ["q", "after", "before"]) if (!keep.includes(name)) params.delete(`${prefix}${name}`);
  return params;
}

/**
 * Where a paged list stands ("Showing 50 of 3,000 members") and plain links to the previous and
 * next pages, so paging works without JavaScript; other lists on the page keep their place.
 */
export function Pager({
  prefix,
  label,
  shown,
  total,
  noun,
  previous,
  next,
}: {
  prefix: string;
  label: string;
  shown: number;
  total: number;
  noun: string;
  previous: string | null;
  next: string | null;
}) {
  const location = useLocation();
  const href = (direction: "after" | "before", cursor: string) => {
    const params = otherParams(location.search, prefix, ["q"]);
    params.set(`${prefix}${direction}`, cursor);
    return `${location.pathname}?${params}`;
  };
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-2 pt-3">
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {`Showing ${formatCount(shown)} of ${formatCount(total)} ${noun}`}
      </p>
      {previous || next ? (
        <div className="flex gap-2">
          {previous ? (
            <Link
              to={href("before", previous)}
              preventScrollReset
              className={buttonVariants({ variant: "outline", size: "sm" })}
            >
              <ChevronLeft aria-hidden /> Previous
            </Link>
          ) : null}
          {next ? (
            <Link
              to={href("after", next)}
              preventScrollReset
              className={buttonVariants({ variant: "outline", size: "sm" })}
            >
              Next <ChevronRight aria-hidden />
            </Link>
          ) : null}
        </div>
      ) : null}
    </nav>
  );
}

/** A GET search over one list (a plain form: works without JavaScript, and the URL can be shared). */
export function ListSearch({ prefix, label, term }: { prefix: string; label: string; term: string | null }) {
  const location = useLocation();
  const kept = otherParams(location.search, prefix);
  return (
    <Form method="get" role="search" aria-label={label} className="flex gap-2" preventScrollReset>
      {[...kept].map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Input
        type="search"
        name={`${prefix}q`}
        defaultValue={term ?? ""}
        aria-label={label}
        placeholder="Search by name"
        maxLength={100}
      />
      <Button type="submit" variant="outline">
        <Search aria-hidden /> Search
      </Button>
      {term ? (
        <Link
          to={`${location.pathname}${kept.size ? `?${kept}` : ""}`}
          className={buttonVariants({ variant: "ghost" })}
        >
          Clear
        </Link>
      ) : null}
    </Form>
  );
}
