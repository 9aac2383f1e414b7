import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      // `const { secret: _secret, ...rest } = row` drops a field on purpose.
      "@typescript-eslint/no-unused-vars": ["error", { varsIgnorePattern: "^_", argsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  // Links go through components/ui/link.tsx, which decides what a link fetches before it is followed.
  {
    files: ["app/**", "components/**"],
    ignores: ["components/ui/link.tsx"],
    rules: { "no-restricted-imports": ["error", { paths: [{ name: "next/link", message: "Use { Link } from \"@/components/ui/link\": a console link prefetches nothing." }] }] },
  },
  // useFreshDatabase() and Playwright's fixture `use` are not React hooks.
  { files: ["**/*.test.ts", "e2e/**"], rules: { "react-hooks/rules-of-hooks": "off" } },
  { ignores: ["lib/generated/**", ".next/**", ".next-*/**", "bench/out/**", ".data/**", "node_modules/**", "test-results/**", "playwright-report/**", "next-env.d.ts"] },
];

export default config;
