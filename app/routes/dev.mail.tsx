import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { requireDevelopment } from "#app/utils/dev-only.server.ts";
import { listDevMail } from "#db/queries/dev-mail.ts";

export const meta: MetaFunction = () => [{ title: "Dev mailbox" }];

// What the app would have e-mailed, for local development and tests (no provider key set).
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireDevelopment(context);
  const to = new URL(request.url).searchParams.get("to");
  return { to, mail: await listDevMail(context.db, to) };
}

export default function DevMailbox() {
  const { to, mail } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-3xl space-y-6 px-4 py-10">
      <h1 className="text-2xl font-bold">Dev mailbox</h1>
      <Form method="get" className="flex gap-2">
        <label htmlFor="to" className="sr-only">
          Recipient
        </label>
        <Input id="to" name="to" type="email" placeholder="Filter by recipient" defaultValue={to ?? ""} />
        <Button type="submit" variant="outline">
          Filter
        </Button>
      </Form>
      {mail.length === 0 ? <p className="text-muted-foreground">No mail yet.</p> : null}
      <ul className="space-y-4">
        {mail.map((item, index) => (
          <li key={index} className="rounded-lg border bg-card p-4">
            <p className="text-sm text-muted-foreground">
              To {item.to} · {new Date(item.createdAt).toLocaleString("en-GB")}
            </p>
            <h2 className="font-semibold">{item.subject}</h2>
            {/* The plain-text part, with its links clickable. */}
            <p className="mt-2 text-sm break-words whitespace-pre-line">
              {item.text.split(/(https?:\/\/\S+)/g).map((part, i) =>
                /^https?:\/\//.test(part) ? (
                  <a key={i} href={part} className="text-primary underline">
                    {part}
                  </a>
                ) : (
                  part
                ),
              )}
            </p>
          </li>
        ))}
      </ul>
    </main>
  );
}
