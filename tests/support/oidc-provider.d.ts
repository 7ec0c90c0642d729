// The few parts of the `oidc-provider` package (a test-only dependency without bundled types)
// that tests/support/oidc-op.ts uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  type Account = { accountId: string; claims: () => Promise<Record<string, unknown>> };
  type Configuration = {
    clients: Array<Record<string, unknown>>;
    jwks: { keys: Array<Record<string, unknown>> };
    cookies: { keys: string[] };
    claims: Record<string, string[]>;
    features: Record<string, { enabled: boolean }>;
    interactions: { url: (ctx: unknown, interaction: { uid: string }) => string };
    findAccount: (ctx: unknown, sub: string) => Promise<Account | undefined>;
  };
  type InteractionDetails = { prompt: { name: string }; session?: { accountId: string } };
  class Grant {
    constructor(init: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options: { mergeWithLastSubmission: boolean },
    ): Promise<void>;
    Grant: typeof Grant;
  }
}
