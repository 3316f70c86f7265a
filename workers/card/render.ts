import { initWasm, Resvg } from "@resvg/resvg-wasm";
// Bundled by wrangler as compiled WebAssembly modules and font bytes (wrangler.toml [[rules]]):
// a Worker may not compile WebAssembly from bytes at run time, and nothing is fetched.
import resvgWasm from "@resvg/resvg-wasm/index_bg.wasm";
import satori, { init as initSatori } from "satori/standalone";
import layoutWasm from "satori/yoga.wasm";
import interBold from "@fontsource/inter/files/inter-latin-700-normal.woff";
import interRegular from "@fontsource/inter/files/inter-latin-400-normal.woff";
import { CARD_HEIGHT, CARD_WIDTH } from "#app/utils/social-meta.ts";

// Link preview cards (1200x630 PNG): a tree of boxes laid out by satori into SVG, then drawn by
// resvg. Both engines are WebAssembly, started once per isolate.

type Node = { type: string; props: { style?: Record<string, unknown>; children?: unknown; src?: string } };
const box = (style: Record<string, unknown>, ...children: unknown[]): Node => ({
  type: "div",
  props: { style: { display: "flex", ...style }, children },
});
const text = (style: Record<string, unknown>, value: string) => box(style, value);

// Started once per copy of the engines, and remembered on globalThis as their own state is:
// resvg refuses a second initWasm of one copy. The Workers tests hold two copies in one isolate
// (the bundled test entry's and the packages Vitest loads for a test file, decision 094), and
// evaluate this module again for each test file (decision 083).
const ENGINES = Symbol.for("career-passport.card-engines");
const started = ((globalThis as { [ENGINES]?: WeakMap<object, Promise<void>> })[ENGINES] ??= new WeakMap());
function start() {
  let ready = started.get(initWasm);
  if (!ready) {
    ready = Promise.all([initSatori(layoutWasm), initWasm(resvgWasm)]).then(() => undefined);
    started.set(initWasm, ready);
  }
  return ready.catch((error) => {
    started.delete(initWasm);
    throw error;
  });
}

const BRAND = "#3b4fd8";
const INK = "#1a1a2e";
const MUTED = "#5b6078";

async function toPng(root: Node) {
  await start();
  const svg = await satori(root as never, {
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
    fonts: [
      { name: "Inter", data: interRegular, weight: 400, style: "normal" },
      { name: "Inter", data: interBold, weight: 700, style: "normal" },
    ],
  });
  const resvg = new Resvg(svg, { fitTo: { mode: "width", value: CARD_WIDTH } });
  try {
    return resvg.render().asPng();
  } finally {
    resvg.free();
  }
}

const frame = (...children: unknown[]) =>
  box(
    {
      width: "100%",
      height: "100%",
      flexDirection: "column",
      justifyContent: "space-between",
      padding: "64px 72px",
      backgroundColor: "#ffffff",
      borderTop: `16px solid ${BRAND}`,
      fontFamily: "Inter",
      color: INK,
    },
    ...children,
  );
const brandLine = () => text({ fontSize: 30, fontWeight: 700, color: BRAND }, "Career Passport");
const clip = (value: string, length: number) => (value.length > length ? `${value.slice(0, length - 1)}…` : value);

export type PassportCard = {
  name: string;
  /** A data: URL of a PNG or JPEG avatar, or null for initials. */
  avatar: string | null;
  total: number;
  achievements: { title: string; organizationName: string | null; date: string }[];
};

export function renderPassportCard(card: PassportCard) {
  const initials =
    card.name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]!.toUpperCase())
      .join("") || "?";
  const avatar = card.avatar
    ? { type: "img", props: { src: card.avatar, style: { width: 168, height: 168, borderRadius: 84 } } }
    : box(
        {
          width: 168,
          height: 168,
          borderRadius: 84,
          backgroundColor: "#e6e9fb",
          color: BRAND,
          fontSize: 64,
          fontWeight: 700,
          alignItems: "center",
          justifyContent: "center",
        },
        initials,
      );
  const organisations = [
    ...new Set(card.achievements.map((a) => a.organizationName).filter((name): name is string => Boolean(name))),
  ];
  const count = `${card.total} ${card.total === 1 ? "achievement" : "achievements"}`;
  return toPng(
    frame(
      box(
        { alignItems: "center", gap: 40 },
        avatar,
        box(
          { flexDirection: "column", gap: 8, maxWidth: 820 },
          text({ fontSize: 64, fontWeight: 700, lineHeight: 1.1 }, clip(card.name, 40)),
          text(
            { fontSize: 30, color: MUTED },
            organisations.length ? `${count} · ${clip(organisations.join(", "), 60)}` : count,
          ),
        ),
      ),
      box(
        { flexDirection: "column", gap: 14 },
        ...card.achievements.map((achievement) =>
          box(
            { alignItems: "center", gap: 18, fontSize: 30 },
            box({ width: 14, height: 14, borderRadius: 7, backgroundColor: BRAND }),
            text({ fontWeight: 700 }, clip(achievement.title, 48)),
            achievement.organizationName ? text({ color: MUTED }, clip(achievement.organizationName, 30)) : "",
          ),
        ),
      ),
      brandLine(),
    ),
  );
}

/** The landing page's card. */
export function renderLandingCard() {
  return toPng(
    frame(
      brandLine(),
      box(
        { flexDirection: "column", gap: 20 },
        text({ fontSize: 76, fontWeight: 700, lineHeight: 1.1 }, "Your lifelong record of achievements"),
        text(
          { fontSize: 34, color: MUTED, lineHeight: 1.35 },
          "Awards, training and milestones, recognised by the organisations you work with. No more paper CVs.",
        ),
      ),
      text({ fontSize: 28, color: MUTED }, "Own your data · Share one link"),
    ),
  );
}
