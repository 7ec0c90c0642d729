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
        "zh-TW": "Midjourney-proxy 的 mj-api-secret（透過 mj-api-secret 請求標頭傳送）。模型請填動作名稱，如 mj_imagine、mj_upscale、mj_variation。",
        ja: "Midjourney-proxy の mj-api-secret（mj-api-secret ヘッダーで送信）。モデルにはアクション名を指定します（例：mj_imagine、mj_upscale、mj_variation）。",
        fr: "Le mj-api-secret du Midjourney-proxy (envoyé dans l'en-tête mj-api-secret). Modèles : les noms d'action, p. ex. mj_imagine, mj_upscale, mj_variation.",
        ru: "mj-api-secret сервера Midjourney-proxy (передаётся в заголовке mj-api-secret). Модели — названия действий, например mj_imagine, mj_upscale, mj_variation.",
        vi: "mj-api-secret của Midjourney-proxy (gửi trong header mj-api-secret). Mô hình: tên thao tác, ví dụ mj_imagine, mj_upscale, mj_variation.",
        es: "El mj-api-secret de Midjourney-proxy (se envía en la cabecera mj-api-secret). Modelos: los nombres de acción, p. ej. mj_imagine, mj_upscale, mj_variation.",
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
        "zh-TW": "Suno API 服務的金鑰（以 Authorization: Bearer 傳送）。模型：suno_music、suno_lyrics。",
        ja: "Suno API サーバーのキー（Authorization: Bearer で送信）。モデル：suno_music、suno_lyrics。",
        fr: "La clé du serveur Suno API (envoyée en Authorization: Bearer). Modèles : suno_music, suno_lyrics.",
        ru: "Ключ сервера Suno API (передаётся как Authorization: Bearer). Модели: suno_music, suno_lyrics.",
        vi: "Khóa của máy chủ Suno API (gửi dưới dạng Authorization: Bearer). Mô hình: suno_music, suno_lyrics.",
        es: "La clave del servidor de Suno API (se envía como Authorization: Bearer). Modelos: suno_music, suno_lyrics.",
      },
    },
  ],
]);
