// Lint enforces the architecture: core and shared never import the editor, the webview or the host; the webview
// never imports the host; no import cycles; no function over 80 lines. `npm run lint` is part of `npm test`.
import tseslint from "typescript-eslint";
import { importX } from "eslint-plugin-import-x";

const editorAndHost = [
  { name: "vscode", message: "core and shared are editor-free: talk to the editor through src/vscode/." },
];
const layer = (patterns) => ["error", { paths: editorAndHost, patterns }];

export default tseslint.config(
  { ignores: ["**/node_modules/**", "dist/**", "out/**", "test-results/**", ".dev/**", ".scratch*/**"] },
  {
    files: ["src/**/*.ts", "webview/**/*.ts", "test/**/*.ts", "bench/**/*.ts", "eval/**/*.ts", "scripts/**/*.ts"],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: "module" },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    plugins: { "import-x": importX, "@typescript-eslint": tseslint.plugin },
    settings: { "import-x/resolver": { node: { extensions: [".ts", ".js", ".mjs"] } }, "import-x/extensions": [".ts"] },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-self-import": "error",
      "no-debugger": "error",
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: ["error", "smart"],
      "@typescript-eslint/no-require-imports": "error",
      "no-control-regex": "error",
    },
  },
  {
    files: ["src/**/*.ts", "webview/**/*.ts", "bench/**/*.ts"],
    rules: { "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  // Control characters are exactly what the terminal sanitiser and its tests match.
  { files: ["src/core/sanitize.ts", "test/**/*.ts"], rules: { "no-control-regex": "off" } },
  { files: ["test/**/*.ts", "bench/**/*.ts", "scripts/**/*.ts"], rules: { "@typescript-eslint/no-require-imports": "off" } },
  {
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-imports": layer([
        { group: ["**/vscode/**", "../vscode", "../../vscode"], message: "core never imports the extension host." },
        { group: ["**/webview/**"], message: "core never imports the webview." },
        { group: ["**/cli/**", "**/cli"], message: "core never imports the CLI." },
      ]),
    },
  },
  {
    files: ["src/mcp/**/*.ts"],
    rules: {
      "no-restricted-imports": layer([
        { group: ["**/vscode/**", "../vscode"], message: "the MCP server runs outside the editor: it never imports the extension host." },
        { group: ["**/webview/**"], message: "the MCP server never imports the webview." },
        { group: ["**/cli/**", "**/cli"], message: "the MCP server never imports the CLI." },
      ]),
    },
  },
  {
    files: ["src/shared/**/*.ts"],
    rules: {
      "no-restricted-imports": layer([
        { group: ["**/vscode/**", "../vscode"], message: "the host<->webview protocol never imports the host." },
        { group: ["**/webview/**"], message: "the protocol never imports the webview." },
      ]),
    },
  },
  {
    files: ["webview/**/*.ts"],
    rules: {
      "no-restricted-imports": layer([
        { group: ["**/src/vscode/**", "../src/vscode/**"], message: "the webview never imports the host." },
        { group: ["**/src/cli/**", "**/src/cli"], message: "the webview never imports the CLI." },
      ]),
    },
  },
);
