// qrcode's core alone (no canvas, PNG or file output, which the package root pulls in): what the
// server draws a QR code from (app/utils/two-factor.server.ts).
declare module "qrcode/lib/core/qrcode.js" {
  import type { QRCode, QRCodeOptions } from "qrcode";
  export function create(text: string, options?: QRCodeOptions): QRCode;
}
