/** The introduction video with its thumbnail as poster; `emptyText` shows when there is none. */
export function IntroVideo({
  url,
  thumbnailUrl,
  emptyText,
}: {
  url: string | null;
  thumbnailUrl: string | null;
  emptyText?: string;
}) {
  if (!url) return emptyText ? <p className="py-6 text-center text-sm text-muted-foreground">{emptyText}</p> : null;
  return (
    <video
      className="aspect-video w-full rounded-lg bg-muted object-cover"
      src={url}
      poster={thumbnailUrl ?? undefined}
      controls
      preload="none"
      playsInline
      width={640}
      height={360}
      aria-label="Introduction video"
    />
  );
}
