import { env, SELF } from "cloudflare:test";

export const ORIGIN = "http://localhost";
export const PASSWORD = "correct-horse-1";

/** A distinct client address per call site, as the rate limits see clients. */
export const newClientIp = () => `2001:db8::${crypto.randomUUID().slice(0, 4)}`;

export const uniqueEmail = (prefix = "user") => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;

/** Posts a form as a browser without JavaScript would. */
export function postForm(
  path: string,
  fields: Record<string, string>,
  { cookie, ip = newClientIp() }: { cookie?: string; ip?: string } = {},
) {
  return SELF.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: ORIGIN,
      // Remix compares Origin with Host on actions; a browser always sends both.
      Host: new URL(ORIGIN).host,
      "cf-connecting-ip": ip,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

export function get(path: string, cookie?: string) {
  return SELF.fetch(`${ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
}

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

export async function confirmationToken(email: string) {
  const row = await env.DB.prepare("select text from dev_mail where \"to\" = ? order by created_at desc, rowid desc limit 1")
    .bind(email.toLowerCase())
    .first<{ text: string }>();
  return row ? new URL(/(https?:\/\/\S+\/auth\/confirm\?token=\S+)/.exec(row.text)![1]!).searchParams.get("token") : null;
}

export async function signUp(fields: { name?: string; email: string; organizationName?: string }) {
  return postForm(fields.organizationName ? "/auth?mode=organisation" : "/auth?mode=personal", {
    intent: fields.organizationName ? "org-signup" : "signup",
    name: fields.name ?? "Test Person",
    email: fields.email,
    password: PASSWORD,
    ...(fields.organizationName ? { organizationName: fields.organizationName } : {}),
  });
}

/** A confirmed account, signed in: returns its id and session cookie. */
export async function createAccount(fields: { name?: string; email?: string; organizationName?: string } = {}) {
  const email = fields.email ?? uniqueEmail();
  await signUp({ ...fields, email });
  const confirm = await postForm("/auth/confirm", { token: (await confirmationToken(email))! });
  const user = await env.DB.prepare("select id from users where email = ?").bind(email).first<{ id: string }>();
  return { id: user!.id, email, cookie: cookiesFrom(confirm) };
}

export async function signIn(email: string, password = PASSWORD, ip?: string) {
  return postForm("/auth", { intent: "signin", email, password }, { ip });
}

export async function countRows(sql: string, ...params: unknown[]) {
  const row = await env.DB.prepare(sql).bind(...params).first<{ n: number }>();
  return row?.n ?? 0;
}

/** Posts a multipart form (files included), as a browser does. */
export function postMultipart(path: string, form: FormData, { cookie, ip = newClientIp() }: { cookie?: string; ip?: string } = {}) {
  return SELF.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { Origin: ORIGIN, Host: new URL(ORIGIN).host, "cf-connecting-ip": ip, ...(cookie ? { Cookie: cookie } : {}) },
    body: form,
    redirect: "manual",
  });
}

/** A real 1×1 PNG. */
export const PNG_BYTES = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="),
  (char) => char.charCodeAt(0),
);
