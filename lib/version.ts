import pkg from "@/package.json";
import { nowSeconds } from "@/lib/time";

export const APP_VERSION: string = `v${pkg.version}`;
// Unix seconds at which this process started (shown on the admin "other" tab).
const holder = globalThis as unknown as { __gatewayStart?: number };
holder.__gatewayStart ??= nowSeconds();
export const START_TIME: number = holder.__gatewayStart;
