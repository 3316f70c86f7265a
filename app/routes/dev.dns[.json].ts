import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { dohAnswer } from "#app/services/dns.server.ts";
import { requireDevelopment, standInWrite } from "#app/utils/dev-only.server.ts";
import { addDevDnsRecord, listDevDnsRecords, removeDevDnsRecords } from "#db/queries/dev-stand-ins.ts";

/**
 * The DNS stand-in (development and tests; 404 in production, like the dev mailbox). GET lists
 * the records, or with `?name=` answers as a DNS-over-HTTPS resolver does in its JSON form
 * (`application/dns-json`); POST `{"name", "type": "TXT", "data"}` adds a record; DELETE
 * `?name=` removes a name's records. Domain checks outside production read these records.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireDevelopment(context);
  const name = new URL(request.url).searchParams.get("name");
  if (name) {
    const answer = dohAnswer(name, await listDevDnsRecords(context.db, { name }));
    return Response.json(answer, { headers: { "Content-Type": "application/dns-json" } });
  }
  return Response.json(await listDevDnsRecords(context.db));
}

const recordSchema = z.object({
  name: z.string().trim().min(1).max(253),
  type: z.literal("TXT"),
  data: z.string().max(4096),
});

export async function action({ request, context }: ActionFunctionArgs) {
  requireDevelopment(context);
  if (request.method === "DELETE") {
    const name = new URL(request.url).searchParams.get("name");
    if (!name) return Response.json({ error: "Give ?name= of the records to remove." }, { status: 400 });
    const removed = await standInWrite(() => removeDevDnsRecords(context.db, name));
    return removed instanceof Response ? removed : new Response(null, { status: 204 });
  }
  if (request.method !== "POST") return Response.json({ error: "Method not allowed" }, { status: 405 });
  const record = recordSchema.safeParse(await request.json().catch(() => null));
  if (!record.success)
    return Response.json({ error: 'Send {"name": "...", "type": "TXT", "data": "..."}.' }, { status: 400 });
  const added = await standInWrite(() => addDevDnsRecord(context.db, record.data));
  return added instanceof Response ? added : Response.json(record.data, { status: 201 });
}
