import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { CopyLink } from "#app/components/copy-link.tsx";
import { PublicPassportView } from "#app/components/passport/public-passport-view.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { MAX_LISTED_ACHIEVEMENTS, loadPassport } from "#db/queries/achievements.ts";
import { PRODUCT_NAME } from "#app/utils/constants.ts";
import { requireViewer } from "#app/utils/session.server.ts";

export const meta: MetaFunction = () => [{ title: `My Passport · ${PRODUCT_NAME}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const passport = await loadPassport(context.db, viewer.id, MAX_LISTED_ACHIEVEMENTS);
  const origin = context.env.APP_URL ?? new URL(request.url).origin;
  return { passport, shareUrl: `${origin}/passport/${viewer.id}` };
}

export default function OwnPassport() {
  const { passport, shareUrl } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto grid max-w-3xl gap-8">
      <Card>
        <CardHeader>
          <CardTitle as="h2">Share your passport</CardTitle>
          <CardDescription>Anyone with this link sees your accepted achievements.</CardDescription>
        </CardHeader>
        <CardContent>
          <CopyLink
            url={shareUrl}
            label="Public passport link"
            toast={{ title: "Link copied!", description: "Share it with recruiters and employers." }}
          />
        </CardContent>
      </Card>
      {passport ? (
        <PublicPassportView
          profile={passport.profile}
          achievements={passport.achievements}
          total={passport.total}
          showAllHref="/passport"
        />
      ) : null}
    </div>
  );
}
