import type { QrCode } from "#app/utils/qr-code.ts";

/** A QR code, drawn from the server's path (app/utils/qr-code.server.ts): no markup is injected into the page. */
export function QrCodeImage({ qr, label }: { qr: QrCode; label: string }) {
  const quiet = 4;
  const side = qr.size + quiet * 2;
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`-${quiet} -${quiet} ${side} ${side}`}
      className="size-48 rounded-md bg-white"
      shapeRendering="crispEdges"
    >
      <rect x={-quiet} y={-quiet} width={side} height={side} fill="#fff" />
      <path d={qr.path} fill="#000" />
    </svg>
  );
}
