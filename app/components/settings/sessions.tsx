import { Form } from "@remix-run/react";
import { Pager } from "#app/components/pager.tsx";
import { SubmitButton } from "#app/components/submit-button.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { formatRelativeTime } from "#app/utils/relative-time.ts";

/** The query parameters Settings pages its sessions with. */
export const SESSIONS_PREFIX = "sessions.";

/** One signed-in browser, as the server describes it (the device named from its user agent there). */
export type SessionRow = {
  id: string;
  device: string;
  place: string | null;
  lastSeenAt: number;
  current: boolean;
};

export type SessionsList = {
  items: SessionRow[];
  total: number;
  next: string | null;
  previous: string | null;
  /** The server's clock when the page was read: times read the same before and after hydration. */
  now: number;
};

/**
 * Where the person is signed in, with a plain form per session (works without JavaScript) and one
 * for every session but this one.
 */
export function Sessions({ sessions }: { sessions: SessionsList }) {
  const others = sessions.total - (sessions.items.some((session) => session.current) ? 1 : 0);
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Sessions</CardTitle>
        <CardDescription>
          Where you are signed in. A session you have not used for 7 days ends by itself, and every session ends 30 days
          after you signed in.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <ul className="grid divide-y rounded-md border" aria-label="Active sessions">
          {sessions.items.map((session) => (
            <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
              <div className="grid gap-0.5">
                <p className="flex items-center gap-2 font-medium">
                  {session.device}
                  {session.current ? <Badge variant="secondary">This browser</Badge> : null}
                </p>
                <p className="text-sm text-muted-foreground">
                  {session.current ? "Active now" : `Last seen ${formatRelativeTime(session.lastSeenAt, sessions.now)}`}
                  {session.place ? ` · ${session.place}` : null}
                </p>
              </div>
              {session.current ? null : (
                <Form method="post" preventScrollReset>
                  <input type="hidden" name="sessionId" value={session.id} />
                  <SubmitButton
                    intent="sign-out-session"
                    variant="outline"
                    size="sm"
                    pendingText="Signing out..."
                    aria-label={`Sign out ${session.device}${session.place ? `, ${session.place}` : ""}`}
                  >
                    Sign out
                  </SubmitButton>
                </Form>
              )}
            </li>
          ))}
        </ul>
        <Pager
          prefix={SESSIONS_PREFIX}
          label="Session pages"
          shown={sessions.items.length}
          total={sessions.total}
          noun="sessions"
          previous={sessions.previous}
          next={sessions.next}
        />
        {others > 0 ? (
          <Form method="post">
            <SubmitButton intent="sign-out-other-sessions" variant="outline" pendingText="Signing out...">
              Sign out everywhere else
            </SubmitButton>
          </Form>
        ) : null}
      </CardContent>
    </Card>
  );
}
