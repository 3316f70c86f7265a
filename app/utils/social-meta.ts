import type { MetaDescriptor } from "@remix-run/cloudflare";
import { PRODUCT_NAME } from "./constants.ts";

/** The size of every link preview card (Open Graph's recommended 1.91:1). */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

/**
 * Link preview tags (Open Graph, read by LinkedIn, Slack, WhatsApp...; Twitter cards) and the
 * canonical URL of a public page. Absolute URLs throughout: previews are fetched from elsewhere.
 */
export function socialMeta(page: {
  title: string;
  description: string;
  url: string;
  image: string;
  imageAlt: string;
  type?: "website" | "profile";
}): MetaDescriptor[] {
  return [
    { tagName: "link", rel: "canonical", href: page.url },
    { property: "og:site_name", content: PRODUCT_NAME },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: page.title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: page.url },
    { property: "og:image", content: page.image },
    { property: "og:image:type", content: "image/png" },
    { property: "og:image:width", content: String(CARD_WIDTH) },
    { property: "og:image:height", content: String(CARD_HEIGHT) },
    { property: "og:image:alt", content: page.imageAlt },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: page.title },
    { name: "twitter:description", content: page.description },
    { name: "twitter:image", content: page.image },
    { name: "twitter:image:alt", content: page.imageAlt },
  ];
}
