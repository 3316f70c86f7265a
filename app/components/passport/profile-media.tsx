import { AvatarUploader, IntroVideoUploader } from "#app/components/media-inputs.tsx";
import { IntroVideo } from "#app/components/passport/intro-video.tsx";
import { Avatar, AvatarFallback, AvatarImage } from "#app/components/ui/avatar.tsx";
import { Card, CardContent } from "#app/components/ui/card.tsx";
import type { useViewer } from "#app/utils/use-viewer.ts";

/** The owner's picture and introduction video, with their upload controls. */
export function ProfileMedia({ viewer }: { viewer: ReturnType<typeof useViewer> }) {
  return (
    <Card>
      <CardContent className="grid gap-6 pt-6 sm:grid-cols-2">
        <div className="flex min-w-0 flex-wrap items-center gap-4">
          <Avatar className="size-20">
            {viewer.avatarUrl ? <AvatarImage src={viewer.avatarUrl} alt="" width={80} height={80} /> : null}
            <AvatarFallback className="text-xl font-semibold">
              {viewer.fullName.slice(0, 1).toUpperCase()}
            </AvatarFallback>
          </Avatar>
          <AvatarUploader redirectTo="/passport" />
        </div>
        <div className="grid min-w-0 gap-3">
          <IntroVideo url={viewer.introVideoUrl} thumbnailUrl={viewer.introVideoThumbnailUrl} />
          <IntroVideoUploader introVideoUrl={viewer.introVideoUrl} redirectTo="/passport" />
        </div>
      </CardContent>
    </Card>
  );
}
