import { create as createQrCode } from "qrcode/lib/core/qrcode.js";
import type { QrCode } from "./qr-code.ts";

/**
 * A QR code as an SVG path (one square per dark module, runs of a row merged), for a page to draw
 * in its own <svg> (app/components/qr-code.tsx): no markup is injected, and the QR library never
 * reaches the browser. Two-factor setup and 'Add to wallet' draw theirs with it.
 */
export function qrCodeOf(text: string): QrCode {
  const { modules } = createQrCode(text, { errorCorrectionLevel: "M" });
  const { size, data } = modules;
  let path = "";
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!data[y * size + x]) continue;
      let run = 1;
      while (x + run < size && data[y * size + x + run]) run++;
      path += `M${x} ${y}h${run}v1h-${run}z`;
      x += run - 1;
    }
  }
  return { size, path };
}
