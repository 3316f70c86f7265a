import { useId } from "react";

export type Bar = { label: string; count: number };

const SLOT = 10;
const HEIGHT = 100;

/**
 * A bar chart drawn as plain SVG on the server: readable without JavaScript, no chart library.
 * The SVG is one image with a summary for screen readers; the same figures are in a table behind
 * "Show as table". The box has a fixed height, so switching ranges never shifts the page.
 */
export function BarChart({ title, bars, summary }: { title: string; bars: Bar[]; summary: string }) {
  const titleId = useId();
  const descriptionId = useId();
  const max = Math.max(1, ...bars.map((bar) => bar.count));
  const gap = bars.length > 20 ? 2 : 3;
  const first = bars[0];
  const last = bars.at(-1);
  return (
    <figure className="grid gap-2">
      <div className="flex items-baseline justify-between text-xs text-muted-foreground" aria-hidden>
        <span>{max}</span>
      </div>
      <svg
        role="img"
        aria-labelledby={`${titleId} ${descriptionId}`}
        viewBox={`0 0 ${bars.length * SLOT} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="h-32 w-full border-b border-border"
      >
        <title id={titleId}>{title}</title>
        <desc id={descriptionId}>{summary}</desc>
        {bars.map((bar, index) => {
          // A zero still gets a sliver, so an empty period reads as "none" rather than missing.
          const height = bar.count === 0 ? 1 : Math.max(3, (bar.count / max) * HEIGHT);
          return (
            <rect
              key={index}
              x={index * SLOT + gap / 2}
              y={HEIGHT - height}
              width={SLOT - gap}
              height={height}
              rx={1}
              className={bar.count === 0 ? "fill-muted" : "fill-primary"}
            >
              <title>{`${bar.label}: ${bar.count}`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="flex justify-between gap-2 text-xs text-muted-foreground" aria-hidden>
        <span>{first?.label}</span>
        <span>{last?.label}</span>
      </figcaption>
      <details className="text-sm">
        <summary className="w-fit cursor-pointer rounded-sm text-muted-foreground underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
          Show as table<span className="sr-only">: {title}</span>
        </summary>
        <table className="mt-2 w-full text-left">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr className="border-b">
              <th scope="col" className="py-1 font-medium">
                Period
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Achievements
              </th>
            </tr>
          </thead>
          <tbody>
            {bars.map((bar, index) => (
              <tr key={index} className="border-b last:border-0">
                <th scope="row" className="py-1 font-normal">
                  {bar.label}
                </th>
                <td className="py-1 text-right tabular-nums">{bar.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
