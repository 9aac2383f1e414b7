import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

export default [
  ...nextCoreWebVitals,
  ...nextTypescript,
  // useFreshDatabase() is a vitest helper, not a React hook.
  { files: ["**/*.test.ts"], rules: { "react-hooks/rules-of-hooks": "off" } },
  { ignores: ["lib/generated/**", ".next/**", ".data/**", "node_modules/**", "test-results/**", "playwright-report/**", "next-env.d.ts"] },
];
