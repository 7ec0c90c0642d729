// The channel setting `responses_only` (in the channel's `setting` JSON object): an
// OpenAI-wire channel whose models exist only on /v1/responses. Where the flag means something
// is the adapter's to say (its profile's `responsesOnlyOption`: the OpenAI wire and Azure); on
// such a channel the relay writes every
// chat, Anthropic or Gemini call to it as a Responses request (lib/relay/providers/
// openai-responses.ts) and passes Responses calls through. Pure: read by the channel cache
// (once per load, never per call) and by the channel editor (docs/relay.md, "The Responses API").
export const RESPONSES_ONLY_SETTING = "responses_only";

function settingObject(setting: string | null | undefined): Record<string, unknown> | null {
  if (!setting || !setting.trim()) return null;
  try {
    const v: unknown = JSON.parse(setting);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Whether the setting flags the channel Responses only (the relay heeds it where the channel's adapter has the option). */
export function isResponsesOnly(setting: string | null | undefined): boolean {
  return settingObject(setting)?.[RESPONSES_ONLY_SETTING] === true;
}

/** The setting text with the flag set or removed, every other key kept as it was. */
export function withResponsesOnly(setting: string | null | undefined, on: boolean): string {
  const o = settingObject(setting) ?? {};
  if (on) o[RESPONSES_ONLY_SETTING] = true;
  else delete o[RESPONSES_ONLY_SETTING];
  return Object.keys(o).length ? JSON.stringify(o) : "";
}
