import type { MetaFunction } from "@remix-run/cloudflare";
import { NotFoundPage } from "#app/components/error-pages.tsx";
import { PRODUCT_NAME } from "#app/utils/constants.ts";

// Every path no other route claims: a real 404 status with the friendly page.
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export const meta: MetaFunction = () => [{ title: `Page not found · ${PRODUCT_NAME}` }];

export default function NotFound() {
  return <NotFoundPage />;
}

export function ErrorBoundary() {
  return <NotFoundPage />;
}
