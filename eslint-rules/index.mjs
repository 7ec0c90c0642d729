// The project's own ESLint rules, as the plugin `local` of eslint.config.mjs.
import hotPathSpread from "./hot-path-spread.mjs";
import ownKeys from "./own-keys.mjs";

const plugin = { meta: { name: "gateway-local" }, rules: { "hot-path-spread": hotPathSpread, "own-keys": ownKeys } };
export default plugin;
