import { lazy, useEffect, type ComponentType } from "react";
import { firstInteraction, noteInteraction } from "./first-interaction.ts";

/**
 * A lazy component whose chunk is fetched after the page's first interaction (decision 049). In a
 * page's first load its Suspense boundary keeps the server's markup, which works as plain HTML
 * (links, and forms posting to the server) until the chunk arrives and React hydrates it in place,
 * keeping whatever was typed. Render it inside `<Suspense fallback={<LoadAtOnce />}>`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own constraint
export function lazyAfterInteraction<Component extends ComponentType<any>>(
  load: () => Promise<{ default: Component }>,
) {
  return lazy(() => firstInteraction().then(load));
}

/**
 * The fallback of a boundary around `lazyAfterInteraction` components. React shows it only when it
 * renders the boundary afresh rather than hydrating it (an update reached the boundary before
 * hydration): its content is then needed now, not on the next interaction.
 */
export function LoadAtOnce() {
  useEffect(noteInteraction, []);
  return null;
}
