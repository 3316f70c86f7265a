import { lazy, useEffect, type ComponentType } from "react";

// Code a page needs only once someone uses it (decision 049). entry.client.tsx listens from the
// start, so a client navigation (which follows a click or a key) finds the page already used.

const INTERACTIONS = ["pointerdown", "keydown", "focusin"] as const;
let interacted = false;
const waiting: (() => void)[] = [];

function noteInteraction() {
  interacted = true;
  for (const type of INTERACTIONS) removeEventListener(type, noteInteraction, true);
  for (const resume of waiting.splice(0)) resume();
}

/** Watches for the page's first pointer, key or focus event. */
export function listenForFirstInteraction() {
  for (const type of INTERACTIONS) addEventListener(type, noteInteraction, { capture: true, passive: true });
}

const firstInteraction = () => (interacted ? Promise.resolve() : new Promise<void>((resume) => waiting.push(resume)));

/**
 * A lazy component whose chunk is fetched after the page's first interaction. In a page's first
 * load its Suspense boundary keeps the server's markup, which works as plain HTML (links, and
 * forms posting to the server) until the chunk arrives and React hydrates it in place, keeping
 * whatever was typed. Render it inside `<Suspense fallback={<LoadAtOnce />}>`.
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
