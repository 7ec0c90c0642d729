import pkg from "@/package.json";

export const APP_VERSION: string = `v${pkg.version}`;
// Unix seconds at which this process started (shown on the admin "other" tab).
const holder = globalThis as unknown as { __gatewayStart?: number };
holder.__gatewayStart ??= Math.floor(Date.now() / 1000);
export const START_TIME: number = holder.__gatewayStart;
