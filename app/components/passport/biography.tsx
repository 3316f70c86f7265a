import { Link, useLocation } from "@remix-run/react";
import { lazy, Suspense, useEffect, useState } from "react";
import { BioForm as BioFormNow } from "#app/components/passport/bio-form.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { useFormReply } from "#app/utils/form-reply.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";

const loadBioForm = () => import("#app/components/passport/bio-form.tsx");
/** The form loads when Edit is first pointed at or pressed; the server renders it at once (docs/decisions/039). */
const BioForm = import.meta.env.SSR
  ? BioFormNow
  : lazy(() => loadBioForm().then((module) => ({ default: module.BioForm })));

/** View, then Edit / Save / Cancel. Without JavaScript, Edit is a link to ?edit=bio. */
export function Biography({ bio }: { bio: string | null }) {
  const hydrated = useHydrated();
  const location = useLocation();
  const mine = useFormReply("bio");
  const [editing, setEditing] = useState(false);
  const editingNow = hydrated
    ? editing || Boolean(mine)
    : new URLSearchParams(location.search).get("edit") === "bio" || Boolean(mine);
  useEffect(() => setEditing(false), [bio]);

  return (
    <Card>
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle as="h2">Biography</CardTitle>
        {editingNow ? null : hydrated ? (
          <Button
            variant="outline"
            size="sm"
            onPointerEnter={loadBioForm}
            onFocus={loadBioForm}
            onClick={() => setEditing(true)}
          >
            Edit
          </Button>
        ) : (
          <Link to="/passport?edit=bio" className={buttonVariants({ variant: "outline", size: "sm" })}>
            Edit
          </Link>
        )}
      </CardHeader>
      <CardContent>
        {editingNow ? (
          <Suspense fallback={null}>
            <BioForm bio={bio} actionData={mine} onCancel={() => setEditing(false)} />
          </Suspense>
        ) : bio ? (
          <p className="break-words whitespace-pre-line">{bio}</p>
        ) : (
          <p className="text-muted-foreground">No biography yet. Click Edit to add one.</p>
        )}
      </CardContent>
    </Card>
  );
}
