// Types of the local ESLint plugin, for the unit test that imports it.
import type { ESLint } from "eslint";

declare const plugin: ESLint.Plugin;
export default plugin;
