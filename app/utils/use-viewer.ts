import { useRouteLoaderData } from "@remix-run/react";
import type { Viewer } from "./viewer.ts";

/** The signed-in viewer, as the signed-in area's layout (routes/_app) loaded it. */
export function useViewer() {
  const data = useRouteLoaderData<() => { viewer: Viewer }>("routes/_app");
  if (!data) throw new Error("useViewer is only for pages inside the signed-in area");
  return data.viewer;
}
