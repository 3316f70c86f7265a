import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireDevelopment } from "#app/utils/dev-only.server.ts";
import { tokenHashOf } from "#app/utils/token-hash.server.ts";

/**
 * The stand-in of Cloudflare's D1 export API (development and tests; 404 in production, like the
 * dev mailbox), for the nightly export (workers/d1-export.ts) pointed at it by
 * CLOUDFLARE_API_BASE=…/dev/cloudflare. As the API does, with the configured token only:
 * POST client/v4/accounts/{account}/d1/database/{database}/export answers "active" with a
 * bookmark, and "complete" with the file's address once polled with that bookmark; that address
 * (d1-export.sql, with its signature) serves this Worker's own D1 as `wrangler d1 export --local`
 * writes it, tables first as `npm run backup` orders it (scripts/backup/local-state.mjs).
 */
const EXPORT_PATH = /^client\/v4\/accounts\/[^/]+\/d1\/database\/[^/]+\/export$/;
const FILE_PATH = "d1-export.sql";

/** The file's signature: only a holder of the token gets its address. */
const signatureOf = (token: string) => tokenHashOf(`d1-export:${token}`);

const refusal = (status: number, message: string) =>
  Response.json({ success: false, errors: [{ code: status, message }], messages: [], result: null }, { status });

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  requireDevelopment(context);
  const token = context.env.D1_EXPORT_API_TOKEN;
  const signature = new URL(request.url).searchParams.get("signature");
  if (params["*"] !== FILE_PATH || !token || signature !== (await signatureOf(token)))
    return new Response("Not Found", { status: 404 });
  const [statements] = await context.cloudflare.env.DB.prepare("PRAGMA miniflare_d1_export(?,?,?);")
    .bind(false, false)
    .raw<string[]>();
  const [pragma, ...rest] = statements ?? [];
  const isTable = (statement: string) => /^CREATE TABLE /i.test(statement);
  const sql = [pragma, ...rest.filter(isTable), ...rest.filter((statement) => !isTable(statement))].join("\n");
  return new Response(sql, { headers: { "Content-Type": "application/sql", "Cache-Control": "no-store" } });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireDevelopment(context);
  if (request.method !== "POST" || !EXPORT_PATH.test(params["*"] ?? "")) return refusal(404, "No such endpoint");
  const token = context.env.D1_EXPORT_API_TOKEN;
  if (!token || request.headers.get("Authorization") !== `Bearer ${token}`) return refusal(403, "Authentication error");
  const body = (await request.json().catch(() => null)) as { output_format?: string; current_bookmark?: string } | null;
  if (body?.output_format !== "polling") return refusal(400, 'Send {"output_format": "polling"}');
  const state = body.current_bookmark
    ? {
        status: "complete",
        at_bookmark: body.current_bookmark,
        result: {
          filename: `${new Date().toISOString().slice(0, 10)}.sql`,
          signed_url: `${new URL(request.url).origin}/dev/cloudflare/${FILE_PATH}?signature=${await signatureOf(token)}`,
        },
      }
    : { status: "active", at_bookmark: crypto.randomUUID() };
  return Response.json({ success: true, errors: [], messages: [], result: { type: "export", messages: [], ...state } });
}
