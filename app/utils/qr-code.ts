/** A QR code as an SVG path of `size` × `size` modules (drawn by the server: app/utils/qr-code.server.ts). */
export type QrCode = { size: number; path: string };
