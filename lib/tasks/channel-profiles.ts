// The channel types the task relay serves (docs/tasks.md), described for the console as the
// chat relay's adapters describe theirs (ProviderProfile, docs/providers.md): both are
// self-hosted servers, so neither has a default address.
import "server-only";
import { CHANNEL_TYPE } from "@/lib/channels/channel-types";
import type { ProviderProfile } from "@/lib/relay/providers/types";

export const TASK_CHANNEL_PROFILES: ReadonlyMap<number, ProviderProfile & { basePlaceholder: string }> = new Map([
  [
    CHANNEL_TYPE.MIDJOURNEY_PROXY,
    {
      defaultBaseUrl: "",
      basePlaceholder: "http://127.0.0.1:8080",
      testModel: "mj_imagine",
      keyHint: {
        en: "The Midjourney-proxy's mj-api-secret (sent in the mj-api-secret header). Models: the action names, e.g. mj_imagine, mj_upscale, mj_variation.",
        zh: "Midjourney-proxy 的 mj-api-secret（通过 mj-api-secret 请求头发送）。模型填写动作名，如 mj_imagine、mj_upscale、mj_variation。",
      },
    },
  ],
  [
    CHANNEL_TYPE.SUNO,
    {
      defaultBaseUrl: "",
      basePlaceholder: "https://suno-api.example.com",
      testModel: "suno_music",
      keyHint: {
        en: "The Suno API server's key (sent as Authorization: Bearer). Models: suno_music, suno_lyrics.",
        zh: "Suno API 服务的密钥（以 Authorization: Bearer 发送）。模型：suno_music、suno_lyrics。",
      },
    },
  ],
]);
