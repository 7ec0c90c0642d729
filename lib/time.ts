// The one clock of the program: unix seconds, as every timestamp column stores them
// (docs/conventions.md, "Data"). Pure and free of "server-only": the console uses it too.
export const nowSeconds = () => Math.floor(Date.now() / 1000);
