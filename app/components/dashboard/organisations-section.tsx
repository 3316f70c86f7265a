import { useViewer } from "#app/utils/use-viewer.ts";
import { CreateOrganization } from "./create-organization.tsx";
import { OrganizationList, OrganizationSearch, type DirectoryPage } from "./organization-directory.tsx";

/** The personal dashboard's Organisations: search the directory (a person) or create one (an organisation account). */
export function OrganisationsSection({
  directory,
  searchError,
}: {
  directory: DirectoryPage | null;
  searchError: string | null;
}) {
  const viewer = useViewer();
  return (
    <section aria-labelledby="organisations-title" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="organisations-title" className="text-xl font-semibold">
          Organisations
        </h2>
        {viewer.userType === "organization" ? <CreateOrganization /> : null}
      </div>
      {viewer.userType === "individual" ? (
        <OrganizationSearch term={directory?.term ?? null} error={searchError} />
      ) : null}
      {directory ? <OrganizationList directory={directory} /> : null}
    </section>
  );
}
