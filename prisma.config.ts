import { defineConfig } from "prisma/config";

// Only used by the Prisma CLI (generate; migrate status for those who have the schema engine).
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" },
});
