import type { ReactNode } from "react";

// React 18 hydrates a page at once, synchronously, when a click, a key or an input reaches it
// before hydration is done. Until React's first pass over the page has begun, that forced pass
// meets Remix's root waiting for the loader data streamed with the document (it always waits once,
// while the data is decoded), and a wait in a forced pass throws React's error 345 ("Root did not
// complete") and leaves the page without scripts. So until that first pass, such events go past
// React, as they did before the scripts loaded: a link navigates, a form posts, a key types. Once
// the first pass has begun, a forced pass finds the root waiting or the data ready.

/** The events that make React 18.3 hydrate at once (react-dom's discreteReplayableEvents). */
const FORCING_EVENTS = [
  "mousedown",
  "mouseup",
  "touchcancel",
  "touchend",
  "touchstart",
  "auxclick",
  "dblclick",
  "pointercancel",
  "pointerdown",
  "pointerup",
  "dragend",
  "dragstart",
  "drop",
  "compositionend",
  "compositionstart",
  "keydown",
  "keypress",
  "keyup",
  "input",
  "textInput",
  "copy",
  "cut",
  "paste",
  "click",
  "change",
  "contextmenu",
  "reset",
  "submit",
];

let firstPassBegun = false;

// On the window, in the capture phase: before React's own listeners on the document.
const keepFromReact = (event: Event) => event.stopPropagation();

/** Call before hydrating. */
export function keepEventsFromReactUntilHydrationStarts() {
  for (const type of FORCING_EVENTS) addEventListener(type, keepFromReact, true);
}

/** Wraps the hydrated app: its first render is React's first pass beginning. */
export function HydrationStart({ children }: { children: ReactNode }) {
  if (!firstPassBegun) {
    firstPassBegun = true;
    for (const type of FORCING_EVENTS) removeEventListener(type, keepFromReact, true);
  }
  return children;
}
