import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { listenForFirstInteraction } from "./utils/first-interaction.ts";
import { HydrationStart, keepEventsFromReactUntilHydrationStarts } from "./utils/hydration-start.tsx";

listenForFirstInteraction();
keepEventsFromReactUntilHydrationStarts();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydrationStart>
        <RemixBrowser />
      </HydrationStart>
    </StrictMode>,
    { onRecoverableError: reportUnlessRerendered },
  );
});

/**
 * React's default report of an error it recovered from, except its error 421: a Suspense boundary
 * that an update reached before its lazy chunk arrived is rendered afresh instead of hydrated. The
 * boundaries whose hydration waits for their chunk (decisions 046 and 049) expect that, and their
 * fallback fetches the chunk at once.
 */
function reportUnlessRerendered(error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  if (/#421[;\s]|before it finished hydrating/.test(message)) return;
  reportError(error);
}
