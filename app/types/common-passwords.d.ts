// Made at build time by scripts/build/common-passwords.ts (server code only).
declare module "virtual:common-passwords" {
  /** The most common passwords, lower-cased, sorted by code unit, one per line. */
  const text: string;
  export default text;
}
