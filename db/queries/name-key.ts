import unhomoglyph from "unhomoglyph";

/** The version of `organizationNameKey` a stored key was made with (keys of earlier ones are re-made). */
export const NAME_KEY_PREFIX = "s1:";
const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The form of a name that impostors are compared in: its UTS #39 skeleton (issue 43; decision
 * 092), case and accents folded, spaces collapsed. Compatibility-decomposed, the characters no one
 * sees (zero-width, soft hyphen, joiners) removed, every confusable mapped to its prototype by
 * Unicode's confusables.txt (the `unhomoglyph` package), decomposed again: so "UNIVERSITÉ
 * d'Oxford", "University of\u200B Oxford" and one with a Cyrillic "і" are one name.
 */
export function organizationNameKey(name: string) {
  const fold = (text: string) => text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  const skeleton = fold(unhomoglyph(fold(name.replace(DEFAULT_IGNORABLE, ""))).replace(DEFAULT_IGNORABLE, ""));
  return `${NAME_KEY_PREFIX}${skeleton.replace(/\s+/g, " ").trim()}`;
}
