/**
 * A message shown to the person as a toast: what an action answered, a page part that failed, a
 * copy confirmation. A plain module, so that the browser, the server and the services share it.
 */
export type Toast = {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
  /** Where the person can do what the message asks (a same-site path), and the link's words. */
  link?: { href: string; label: string };
};
