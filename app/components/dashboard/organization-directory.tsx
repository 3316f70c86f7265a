import { Form, useLocation, useNavigation } from "@remix-run/react";
import Building2 from "lucide-react/icons/building-complex";
import Search from "lucide-react/icons/search";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Pager } from "#app/components/pager.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";

export type DirectoryOrganization = {
  id: string;
  name: string;
  description: string | null;
  status: string | null;
  issuerDomain?: string | null;
  issuerNameNotVerified?: number | boolean | null;
};
export type DirectoryPage = {
  organizations: DirectoryOrganization[];
  term: string | null;
  total: number;
  next: string | null;
  previous: string | null;
};

/** The directory's query-parameter prefix for its pages (its search term stays `q`). */
export const DIRECTORY_PREFIX = "orgs.";

/** Individuals with no organisation find one by name; results are a link (?q=) anyone can share. */
export function OrganizationSearch({ term, error }: { term: string | null; error: string | null }) {
  const navigation = useNavigation();
  const location = useLocation();
  const searching =
    navigation.state === "loading" &&
    navigation.location.pathname === location.pathname &&
    navigation.location.search.includes("q=");
  return (
    <Form method="get" role="search" className="grid gap-2">
      <label htmlFor="organization-search" className="text-sm font-medium">
        Find your organisation
      </label>
      <div className="flex gap-2">
        <Input
          id="organization-search"
          name="q"
          type="search"
          maxLength={100}
          defaultValue={term ?? ""}
          placeholder="Organisation name"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "organization-search-error" : undefined}
        />
        <Button type="submit" disabled={searching}>
          <Search aria-hidden />
          {searching ? "Searching..." : "Search"}
        </Button>
      </div>
      {error ? (
        <p id="organization-search-error" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </Form>
  );
}

export function OrganizationList({ directory }: { directory: DirectoryPage }) {
  const { organizations, term } = directory;
  const location = useLocation();
  if (organizations.length === 0) {
    return (
      <p className="rounded-lg border border-dashed p-8 text-center text-muted-foreground">
        {term ? `No organisations found matching '${term}'` : "No organisations available"}
      </p>
    );
  }
  return (
    <div className="grid gap-2">
      <ul className="grid gap-4 sm:grid-cols-2" aria-label="Organisations found">
        {organizations.map((organization) => (
          <li key={organization.id}>
            <Card className="flex h-full flex-col">
              <CardHeader className="flex-1">
                <CardTitle as="h3" className="flex items-center gap-2 break-words">
                  <Building2 className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                  {organization.name}
                </CardTitle>
                {organization.issuerDomain ? (
                  <p className="text-sm break-all">
                    <span className="text-muted-foreground">Domain verified:</span> {organization.issuerDomain}
                  </p>
                ) : organization.issuerNameNotVerified ? (
                  <Badge variant="destructive" className="w-fit">
                    Name not verified
                  </Badge>
                ) : null}
                {organization.description ? (
                  <CardDescription className="break-words">{organization.description}</CardDescription>
                ) : null}
              </CardHeader>
              <CardFooter>
                {organization.status === "approved" ? (
                  <Button disabled variant="secondary">
                    Member
                  </Button>
                ) : organization.status === "pending" ? (
                  <Button disabled variant="secondary">
                    Pending Approval
                  </Button>
                ) : (
                  <Form method="post" action="/dashboard">
                    <input type="hidden" name="organizationId" value={organization.id} />
                    {/* Back to these same results, which now show Pending Approval. */}
                    <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
                    <SubmitButton
                      intent="request-join"
                      aria-label={`Request to Join ${organization.name}`}
                      pendingText="Sending..."
                    >
                      Request to Join
                    </SubmitButton>
                  </Form>
                )}
              </CardFooter>
            </Card>
          </li>
        ))}
      </ul>
      <Pager
        prefix={DIRECTORY_PREFIX}
        label="Organisation pages"
        shown={organizations.length}
        total={directory.total}
        noun={term ? "matching organisations" : "organisations"}
        previous={directory.previous}
        next={directory.next}
      />
    </div>
  );
}
