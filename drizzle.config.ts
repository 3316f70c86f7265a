import { defineConfig } from "drizzle-kit";

// Generates SQL only; wrangler applies it (`npm run db:migrate`), so no credentials are needed.
export default defineConfig({
  dialect: "sqlite",
  schema: "./db/schema.ts",
  out: "./migrations",
});
