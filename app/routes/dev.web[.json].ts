import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { requireDevelopment, standInWrite } from "#app/utils/dev-only.server.ts";
import { listDevWebDocuments, putDevWebDocument } from "#db/queries/dev-stand-ins.ts";

/**
 * The web stand-in (development and tests; 404 in production). POST `{"url", "contentType",
 * "body"}` stores a document that fetches of that URL return outside production (an issuer's
 * did-configuration.json, a DID document); GET lists them.
 */
export async function loader({ context }: LoaderFunctionArgs) {
  requireDevelopment(context);
  return Response.json(await listDevWebDocuments(context.db));
}

const documentSchema = z.object({
  url: z.url({ protocol: /^https$/ }),
  contentType: z.string().trim().min(1).max(200).default("application/json"),
  body: z.string().max(512 * 1024),
});

export async function action({ request, context }: ActionFunctionArgs) {
  requireDevelopment(context);
  if (request.method !== "POST") return Response.json({ error: "Method not allowed" }, { status: 405 });
  const document = documentSchema.safeParse(await request.json().catch(() => null));
  if (!document.success)
    return Response.json(
      { error: 'Send {"url": "https://...", "contentType": "application/json", "body": "..."}.' },
      { status: 400 },
    );
  const stored = await standInWrite(() => putDevWebDocument(context.db, document.data));
  return stored instanceof Response ? stored : Response.json({ url: document.data.url }, { status: 201 });
}
