import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { strFromU8, unzipSync } from "fflate";
import worker from "#workers/test-app.ts";
import { writeConfirmedAccount } from "./account-factory.ts";
import { today } from "#tests/today.ts";

export const ORIGIN = "http://localhost";
export const PASSWORD = "correct-horse-1";

/** A client in a network (IPv6 /64) of its own: the rate limits count a client by its network. */
export const newClientNetwork = () =>
  `2001:db8:${crypto.randomUUID().slice(0, 4)}:${crypto.randomUUID().slice(0, 4)}::1`;
/** A distinct client per call site, as the rate limits see clients (each in a /64 of its own). */
export const newClientIp = newClientNetwork;

/**
 * The test Worker's bindings as a deployment has them (ENVIRONMENT unset means production, too),
 * with the settings production refuses to start without.
 */
export const productionBindings = (environment: string | undefined = "production") =>
  ({
    ...env,
    ENVIRONMENT: environment,
    CREDENTIAL_KEY_SECRET: "production-credential-key-secret-0123456789",
    TWO_FACTOR_SECRETS: "1:production-two-factor-secret-0123456789",
  }) as unknown as Env;

export const uniqueEmail = (prefix = "user") => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;

/**
 * Posts a form as a browser without JavaScript would. Resolves once the work the answer left
 * behind (`waitUntil`: mail, closing sockets) is done too, as it is by the time a person reads
 * their mail: tests read the dev mailbox right after.
 */
export async function postForm(
  path: string,
  fields: Record<string, string>,
  { cookie, ip = newClientIp(), headers = {} }: { cookie?: string; ip?: string; headers?: Record<string, string> } = {},
) {
  return fetchApp(formRequest(path, fields, { cookie, ip, headers }));
}

/**
 * Serves `request` with the test entry's own fetch, and resolves once the work its answer left
 * behind (`waitUntil`) is done too. Not `SELF.fetch`: through the pool's SELF each request came
 * slower than the one before, all through a file (4 ms at first, over 100 ms after a thousand),
 * while the entry called directly stays at about 2 ms (decision 085).
 */
export async function fetchApp(request: Request) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** The request a browser without JavaScript sends for a form. */
export function formRequest(
  path: string,
  fields: Record<string, string>,
  { cookie, ip, headers = {} }: { cookie?: string; ip: string; headers?: Record<string, string> },
) {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: ORIGIN,
      // Remix compares Origin with Host on actions; a browser always sends both.
      Host: new URL(ORIGIN).host,
      "cf-connecting-ip": ip,
      ...(cookie ? { Cookie: cookie } : {}),
      ...headers,
    },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

export function get(path: string, cookie?: string) {
  return fetchApp(new Request(`${ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" }));
}

/** A page's text as a reader sees it. */
export const textOf = async (response: Response) =>
  (await response.text())
    .replace(/<!--.*?-->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ");

/** The text of the page at `path`, as a reader sees it. */
export const pageText = async (path: string, cookie?: string) => textOf(await get(path, cookie));

/** The cookies a response sets, as a Cookie header (cleared cookies left out). */
export function cookiesFrom(response: Response, previous = "") {
  const jar = new Map(
    previous
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)] as const),
  );
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const name = pair!.slice(0, pair!.indexOf("="));
    const value = pair!.slice(pair!.indexOf("=") + 1);
    if (!value || /max-age=0/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** The e-mails to this address (whose subject is like `subject`), newest first. */
export async function mailsTo(email: string, subject = "%") {
  const { results } = await env.DB.prepare(
    'select subject, text, html from dev_mail where "to" = ? and subject like ? order by created_at desc, rowid desc',
  )
    .bind(email.toLowerCase(), subject)
    .all<{ subject: string; text: string; html: string }>();
  return results;
}

/**
 * The token of the link to `path` in the newest e-mail to this address (of those whose subject
 * is like `subject`), null when there is none.
 */
async function mailedToken(email: string, path: string, subject = "%") {
  const [mail] = await mailsTo(email, subject);
  if (!mail) return null;
  const link = new RegExp(`(https?:\\/\\/\\S+${path}\\?token=\\S+)`).exec(mail.text)![1]!;
  return new URL(link).searchParams.get("token");
}

/** The token of the confirmation link in the newest e-mail to this address (null when none). */
export const confirmationToken = (email: string) => mailedToken(email, "/auth/confirm");

/** The token of the newest forgot-password link mailed to this address (null when none). */
export const passwordResetToken = (email: string) => mailedToken(email, "/auth/reset-password", "Reset your%");

export async function signUp(fields: { name?: string; email: string; organizationName?: string }) {
  return postForm(fields.organizationName ? "/auth?mode=organisation" : "/auth?mode=personal", {
    intent: fields.organizationName ? "org-signup" : "signup",
    name: fields.name ?? "Test Person",
    email: fields.email,
    password: PASSWORD,
    ...(fields.organizationName ? { organizationName: fields.organizationName } : {}),
  });
}

/**
 * A confirmed account, signed in, written straight into D1 (account-factory.ts): its id, e-mail
 * and session cookie. An organisation account when `organizationName` is given.
 */
export async function createAccount(fields: { name?: string; email?: string; organizationName?: string } = {}) {
  const email = fields.email ?? uniqueEmail();
  const { id, cookie } = await writeConfirmedAccount({
    name: fields.name ?? "Test Person",
    email,
    password: PASSWORD,
    organizationName: fields.organizationName,
  });
  return { id, email, cookie };
}

/**
 * The same as createAccount, made through the forms as a person does (sign-up, then the mailed
 * confirmation link in the same browser): for the tests about signing up, in and back in.
 */
export async function signUpAndConfirm(fields: { name?: string; email?: string; organizationName?: string } = {}) {
  const email = fields.email ?? uniqueEmail();
  const signedUp = await signUp({ ...fields, email });
  // Confirmed in the browser that signed up (its cookie says so), which signs it in.
  const confirm = await postForm(
    "/auth/confirm",
    { token: (await confirmationToken(email))! },
    { cookie: signUpCookie(signedUp) },
  );
  const user = await env.DB.prepare("select id from users where email = ?").bind(email).first<{ id: string }>();
  return { id: user!.id, email, cookie: cookiesFrom(confirm) };
}

/** The cookie a sign-up leaves in its browser, naming the account it created. */
export function signUpCookie(signUpResponse: Response) {
  return cookiesFrom(signUpResponse)
    .split("; ")
    .filter((pair) => pair.startsWith("passport_signup="))
    .join("; ");
}

export async function signIn(email: string, password = PASSWORD, ip?: string) {
  return postForm("/auth", { intent: "signin", email, password }, { ip });
}

export async function countRows(sql: string, ...params: unknown[]) {
  const row = await env.DB.prepare(sql)
    .bind(...params)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Posts a multipart form (files included), as a browser does. */
export function postMultipart(
  path: string,
  form: FormData,
  { cookie, ip = newClientIp(), headers = {} }: { cookie?: string; ip?: string; headers?: Record<string, string> } = {},
) {
  return fetchApp(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: {
        Origin: ORIGIN,
        Host: new URL(ORIGIN).host,
        "cf-connecting-ip": ip,
        ...(cookie ? { Cookie: cookie } : {}),
        ...headers,
      },
      body: form,
      redirect: "manual",
    }),
  );
}

/** The own passport's Add Achievement form, with these files (and, or instead, a media link). */
export function selfAchievementForm(files: Record<string, File> = {}, mediaUrl?: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries({
    formId: "self",
    intent: "add-self-achievement",
    title: "Pictured",
    company: "Studio",
    date: today(),
    type: "award",
  })) {
    form.set(name, value);
  }
  for (const [name, file] of Object.entries(files)) form.set(name, file);
  if (mediaUrl) form.set("mediaUrl", mediaUrl);
  return form;
}

/** A form of /profile/media (the avatar and introduction video uploaders), going back to `redirectTo`. */
export function profileMediaForm(intent: string, files: Record<string, File> = {}, redirectTo = "/settings") {
  const form = new FormData();
  form.set("redirectTo", redirectTo);
  for (const [name, file] of Object.entries(files)) form.set(name, file);
  form.set("intent", intent);
  return form;
}

/** A real 1×1 PNG. */
export const PNG_BYTES = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="),
  (char) => char.charCodeAt(0),
);

const u32 = (value: number) =>
  Uint8Array.from([value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]);
const bytesOf = (text: string) => new TextEncoder().encode(text);
const join = (...parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) out.set(part, (offset += part.length) - part.length);
  return out;
};
const box = (type: string, ...body: Uint8Array[]) =>
  join(u32(8 + body.reduce((sum, part) => sum + part.length, 0)), bytesOf(type), ...body);

/**
 * A structurally valid MP4 of the given duration (ftyp, moov/mvhd, mdat), the movie box after
 * the media data as most cameras write it. Not playable: the server reads headers only.
 */
export function mp4Bytes({ seconds, mediaBytes = 1024 }: { seconds: number; mediaBytes?: number }) {
  const mvhd = join(new Uint8Array(12), u32(1000), u32(Math.round(seconds * 1000)), new Uint8Array(80));
  return join(
    box("ftyp", bytesOf("isom"), u32(512), bytesOf("isomiso2mp41")),
    box("mdat", new Uint8Array(mediaBytes)),
    box("moov", box("mvhd", mvhd)),
  );
}

/** A WebM whose Segment/Info says `seconds` (TimecodeScale 1 ms), followed by one Cluster. */
export function webmBytes({ seconds }: { seconds: number }) {
  const size = (n: number) => join(Uint8Array.from([0x01, 0, 0]), u32(0), Uint8Array.from([n])); // 8-byte vint, n < 256
  const element = (id: number[], body: Uint8Array) => join(Uint8Array.from(id), size(body.length), body);
  const duration = new Uint8Array(8);
  new DataView(duration.buffer).setFloat64(0, seconds * 1000);
  const info = element(
    [0x15, 0x49, 0xa9, 0x66],
    join(element([0x2a, 0xd7, 0xb1], Uint8Array.from([0x0f, 0x42, 0x40])), element([0x44, 0x89], duration)),
  );
  const cluster = element([0x1f, 0x43, 0xb6, 0x75], new Uint8Array(64));
  return join(
    element([0x1a, 0x45, 0xdf, 0xa3], element([0x42, 0x82], bytesOf("webm"))),
    element([0x18, 0x53, 0x80, 0x67], join(info, cluster)),
  );
}

/**
 * A JPEG's headers (JFIF, then a 1×1 frame) and no picture data: enough for the type and pixel
 * checks of an upload, not for drawing.
 */
export const JPEG_BYTES: Uint8Array<ArrayBuffer> = Uint8Array.from([
  ...[0xff, 0xd8],
  ...[0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00],
  ...[0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00],
  ...[0xff, 0xd9],
]);

/** The flash toast a redirect carries (Remix's signed cookie: base64 JSON, then a signature). */
export function toastFrom(response: Response): { title: string; description?: string; variant?: string } | null {
  const line = response.headers.getSetCookie().find((cookie) => cookie.startsWith("passport_toast="));
  if (!line) return null;
  const value = decodeURIComponent(line.slice("passport_toast=".length).split(";")[0]!);
  const encoded = value.slice(0, value.lastIndexOf("."));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0))));
}

/** The organisation's current invite code, as the admin's invite link carries it. */
export async function inviteCode(organizationId: string) {
  const row = await env.DB.prepare("select invite_code as code from organizations where id = ?")
    .bind(organizationId)
    .first<{ code: string }>();
  return row!.code;
}

/** Opens the admin's invite link (with its code) and joins, as the invite page's form does. */
export async function joinByInviteLink(organizationId: string, cookie: string) {
  return postForm(`/join/${organizationId}`, { code: await inviteCode(organizationId) }, { cookie });
}

/** The person's "Download my data" from Settings. */
export const exportOf = (cookie: string) => postForm("/settings/export", {}, { cookie });

/** A ZIP answer's files, and a reader of one as JSON. */
export async function unzip(response: Response) {
  const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
  const json = (name: string) => JSON.parse(strFromU8(files[name]!));
  return { files, json };
}
