import { Link } from "@remix-run/react";
import { buttonVariants } from "#app/components/ui/button.tsx";

function CenteredMessage({ code, title, children }: { code: string; title: string; children: React.ReactNode }) {
  return (
    <main className="grid min-h-dvh place-items-center px-4 py-16">
      <div className="max-w-md text-center">
        <p className="text-6xl font-bold text-primary">{code}</p>
        <h1 className="mt-4 text-2xl font-semibold tracking-tight">{title}</h1>
        <div className="mt-6 flex flex-col items-center gap-6 text-muted-foreground">{children}</div>
      </div>
    </main>
  );
}

export function NotFoundPage() {
  return (
    <CenteredMessage code="404" title="Oops! Page not found">
      <p>The page you are looking for does not exist or has moved.</p>
      <Link to="/" className={buttonVariants()}>
        Return to Home
      </Link>
    </CenteredMessage>
  );
}

export function ErrorPage({
  title = "Something went wrong",
  message = "An unexpected error stopped this page. Please try again in a moment.",
}: {
  title?: string;
  message?: string;
}) {
  return (
    <CenteredMessage code="Sorry" title={title}>
      <p>{message}</p>
      <a href="/" className={buttonVariants()}>
        Return to Home
      </a>
    </CenteredMessage>
  );
}
