// Types of the local ESLint plugin (index.mjs), for the unit test that imports it.
import type { ESLint } from "eslint";

declare const plugin: ESLint.Plugin;
export default plugin;
