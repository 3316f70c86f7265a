// Whether someone has used the page yet (decision 049). entry.client.tsx listens from the start,
// so a client navigation (which follows a click or a key) finds the page already used.

const INTERACTIONS = ["pointerdown", "keydown", "focusin"];
let interacted = false;
const waiting: (() => void)[] = [];

/** Notes the page's first use (also what `LoadAtOnce` calls) and resumes whatever waited for it. */
export function noteInteraction() {
  interacted = true;
  for (const type of INTERACTIONS) removeEventListener(type, noteInteraction, true);
  for (const resume of waiting.splice(0)) resume();
}

/** Watches for the page's first pointer, key or focus event. */
export function listenForFirstInteraction() {
  for (const type of INTERACTIONS) addEventListener(type, noteInteraction, { capture: true, passive: true });
}

/** Resolves at once if the page has been used, otherwise on its first use. */
export const firstInteraction = () =>
  interacted ? Promise.resolve() : new Promise<void>((resume) => waiting.push(resume));
