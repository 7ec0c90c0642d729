"use client";
// /playground (docs/console-ui.md, "Playground"): a side panel with the conversations kept
// in this browser and the group, model, temperature, max tokens and system prompt; a chat
// that starts with a greeting exchange and streams the reply from POST /pg/chat/completions
// (the console session pays, no token), which can be stopped, copied and regenerated.
import { Square } from "lucide-react";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState, type FormEvent } from "react";
import useSWR from "swr";
import { useQuotaDisplay, useSessionUser } from "@/components/layout/providers";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Field, SelectField } from "@/components/ui/input";
import { Textarea, TextareaField } from "@/components/ui/textarea";
import { useGroupDescription } from "@/lib/client/group-description";
import { reportFailure, requestHeaders } from "@/lib/client/api";
import {
  chatRequest,
  clampTemperature,
  conversationId,
  DEFAULT_MAX_TOKENS,
  DEFAULT_MODEL,
  failedAnswerText,
  FIRST_MESSAGE_ID,
  greeting,
  nameFromQuestion,
  nextMessageId,
  parseMaxTokens,
  readConversations,
  readStreamData,
  replyQuota,
  TEMPERATURE,
  type ChatMessage,
  type Conversation,
  type ConversationStore,
} from "@/lib/client/playground";
import { fetchPricing, PRICING_PATH, type Pricing } from "@/lib/client/pricing";
import { readItem, STORAGE_KEYS, writeJson } from "@/lib/client/storage";
import { toast } from "@/lib/client/toast";
import { StreamClient } from "@/lib/client/stream-client";
import { ChatMessage as ChatMessageView } from "./chat-message";
import { ConversationList } from "./conversation-list";
import { ModelPicker } from "./model-picker";

type Groups = Record<string, { desc: string; ratio: number }>;

// A full browser storage must not break the chat: the conversations then live only in the page.
function saveConversations(store: ConversationStore) {
  try {
    writeJson(STORAGE_KEYS.playgroundConversations, store);
  } catch {
    // quota exceeded
  }
}

export function PlaygroundPage() {
  const t = useTranslations("playground");
  const groupDescription = useGroupDescription();
  const user = useSessionUser();
  const display = useQuotaDisplay();
  const startMessages = () => greeting(t("greetingUser"), t("greetingAssistant"));
  const blank = (): Conversation => ({ id: conversationId(), name: "", messages: startMessages(), updatedAt: Date.now() });
  const [store, setStore] = useState<ConversationStore>(() => {
    const first = blank();
    return { active: first.id, list: [first] };
  });
  const [loaded, setLoaded] = useState(false);
  const [group, setGroup] = useState(user?.group ?? "");
  const [model, setModel] = useState(DEFAULT_MODEL);
  const [temperature, setTemperature] = useState<number>(TEMPERATURE.initial);
  const [maxTokens, setMaxTokens] = useState(String(DEFAULT_MAX_TOKENS));
  const [systemPrompt, setSystemPrompt] = useState(() => t("defaultSystemPrompt"));
  const [input, setInput] = useState("");
  const [panelOpen, setPanelOpen] = useState(false);
  const [expired, setExpired] = useState(false);
  const stream = useRef<StreamClient | null>(null);
  const list = useRef<HTMLOListElement | null>(null);
  const modelChosen = useRef(false);

  const { data: groups } = useSWR<Groups>("/api/user/self/groups");
  const { data: models } = useSWR<string[]>("/api/user/models");
  const { data: pricing } = useSWR<Pricing>(PRICING_PATH, fetchPricing);

  const conversation = store.list.find((c) => c.id === store.active) ?? store.list[0];
  const messages = conversation.messages;
  const busy = messages.some((m) => m.status === "loading" || m.status === "incomplete");

  useEffect(() => {
    const flag = new URLSearchParams(window.location.search).get("expired");
    setExpired(flag !== null && flag !== "false");
  }, []);
  // The conversations kept in this browser, read once after the first render (the server
  // cannot see them); one that cannot be read is said so and replaced.
  useEffect(() => {
    const raw = readItem(STORAGE_KEYS.playgroundConversations);
    const kept = raw === null ? null : readConversations(raw);
    if (kept) setStore(kept);
    else if (raw !== null) toast.error({ key: "chat.parseFailed" });
    setLoaded(true);
  }, []);
  // Kept on every change but the streaming of a reply (its end is kept), and when the page
  // goes away mid-reply.
  useEffect(() => {
    if (loaded && !busy) saveConversations(store);
  }, [store, loaded, busy]);
  useEffect(() => {
    if (!loaded) return;
    const keep = () => saveConversations(store);
    window.addEventListener("pagehide", keep);
    return () => window.removeEventListener("pagehide", keep);
  }, [store, loaded]);
  // The default model when it is usable, else the first usable one, once the list is known.
  useEffect(() => {
    if (!models || modelChosen.current) return;
    modelChosen.current = true;
    if (models.length && !models.includes(DEFAULT_MODEL)) setModel(models[0]);
  }, [models]);
  // Keep the newest text in view. (An effect must not return what scrollTo returns: Chromium
  // returns a Promise there, which React would later call as the cleanup.)
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages]);
  useEffect(() => {
    return () => stream.current?.close();
  }, []);

  function update(id: string, fn: (c: Conversation) => Conversation) {
    setStore((s) => ({ ...s, list: s.list.map((c) => (c.id === id ? fn(c) : c)) }));
  }
  function patch(convId: string, msgId: string, fn: (m: ChatMessage) => ChatMessage) {
    update(convId, (c) => ({ ...c, messages: c.messages.map((m) => (m.id === msgId ? fn(m) : m)) }));
  }

  // Asks for a reply to `history` (which ends with the user's question) in conversation convId.
  async function ask(convId: string, history: ChatMessage[], replyId: string) {
    const fail = (text: string) => patch(convId, replyId, (m) => ({ ...m, status: "error", content: m.content ? `${m.content}\n${text}` : text }));
    update(convId, (c) => ({
      ...c,
      updatedAt: Date.now(),
      messages: [...history, { id: replyId, role: "assistant", content: "", createAt: Date.now(), status: "loading" }],
    }));
    const asked = { group, model };
    const body = chatRequest({ group, model, temperature, maxTokens: parseMaxTokens(maxTokens), systemPrompt }, history);
    // The stream client (lib/client/stream-client.ts): one POST, no reconnect (a chat reply
    // is not resumable).
    const client = new StreamClient("/pg/chat/completions", { payload: JSON.stringify(body), headers: requestHeaders(true) });
    stream.current = client;
    let finished = false;
    client.on("message", (ev) => {
      if (finished) return;
      const step = readStreamData(ev.data);
      if (step.kind === "skip") return;
      if (step.kind === "delta") {
        const { text, usage } = step;
        const price = pricing?.data.find((p) => p.model_name === asked.model);
        const quota = usage ? replyQuota(usage, price, groups?.[asked.group]?.ratio ?? 1, display.quotaPerUnit) : null;
        patch(convId, replyId, (m) => ({
          ...m,
          status: "incomplete",
          content: m.content + text,
          ...(usage ? { usage } : {}),
          ...(quota !== null ? { quota } : {}),
        }));
      } else {
        finished = true;
        if (step.kind === "done") patch(convId, replyId, (m) => ({ ...m, status: "complete" }));
        else fail(step.text);
        client.close();
      }
    });
    client.on("error", (failure) => {
      finished = true;
      if ("error" in failure) fail(failure.error.message);
      else {
        fail(failedAnswerText(failure.status, failure.body));
        // The session is gone: the catalogue logs out and goes to log in again.
        if (failure.status === 401) reportFailure({ kind: "expired" });
      }
    });
    await client.stream();
    // The stream closed without [DONE] (or was stopped): what arrived is the reply.
    if (!finished) patch(convId, replyId, (m) => (m.status === "error" ? m : { ...m, status: "complete" }));
    if (stream.current === client) stream.current = null;
  }

  function send(e?: FormEvent) {
    e?.preventDefault();
    const text = input.trim();
    if (!text || busy || !model) return;
    const id = nextMessageId(messages);
    const question: ChatMessage = { id: String(id), role: "user", content: text, createAt: Date.now(), status: "complete" };
    if (!conversation.name) update(conversation.id, (c) => ({ ...c, name: nameFromQuestion(text) }));
    setInput("");
    void ask(conversation.id, [...messages, question], String(id + 1));
  }

  // The last reply asked again: the same question, a new reply in its place.
  function regenerate() {
    const last = messages[messages.length - 1];
    if (busy || !model || last?.role !== "assistant") return;
    void ask(conversation.id, messages.slice(0, -1), String(nextMessageId(messages)));
  }

  function stop() {
    stream.current?.close();
  }

  function clearContext() {
    stream.current?.close();
    stream.current = null;
    update(conversation.id, (c) => ({ ...c, messages: startMessages(), updatedAt: Date.now() }));
  }

  function newConversation() {
    const c = blank();
    setStore((s) => ({ active: c.id, list: [c, ...s.list] }));
  }

  function deleteConversation(id: string) {
    if (id === conversation.id) stream.current?.close();
    setStore((s) => {
      const list = s.list.filter((c) => c.id !== id);
      if (list.length === 0) {
        const c = blank();
        return { active: c.id, list: [c] };
      }
      return { active: s.active === id ? list[0].id : s.active, list };
    });
  }

  const lastReply = messages[messages.length - 1];
  const canRegenerate = !busy && lastReply?.role === "assistant" && Number(lastReply.id) >= FIRST_MESSAGE_ID;
  const groupOptions = Object.entries(groups ?? {});
  return (
    <div className="flex flex-col gap-4 p-4 md:h-[calc(100vh-7.5rem)] md:min-h-[34rem] md:flex-row md:p-6">
      <aside aria-label={t("settings")} className="md:w-72 md:shrink-0 md:overflow-y-auto">
        <Button
          variant="secondary"
          size="sm"
          className="mb-3 w-full justify-center md:hidden"
          aria-expanded={panelOpen}
          aria-controls="playground-settings"
          onClick={() => setPanelOpen(!panelOpen)}
        >
          {panelOpen ? t("hideSettings") : t("showSettings")}
        </Button>
        <div id="playground-settings" className={cn("flex-col gap-4 md:flex", panelOpen ? "flex" : "hidden")}>
          <ConversationList
            conversations={store.list}
            active={conversation.id}
            busy={busy}
            onPick={(id) => setStore((s) => ({ ...s, active: id }))}
            onNew={newConversation}
            onRename={(id, name) => update(id, (c) => ({ ...c, name }))}
            onDelete={deleteConversation}
          />
          <div className="flex flex-col gap-4 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
            <h2 className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">{t("settings")}</h2>
            <SelectField label={t("group")} value={group} onChange={(e) => setGroup(e.target.value)}>
              {groupOptions.length === 0 && <option value={group}>{group}</option>}
              {groupOptions.map(([g, info]) => (
                <option key={g} value={g}>
                  {info.desc && info.desc !== g ? `${g} · ${groupDescription(g, info.desc)}` : g} ({t("ratio", { ratio: info.ratio })})
                </option>
              ))}
            </SelectField>
            <ModelPicker
              label={t("model")}
              models={models ?? []}
              value={model}
              onChange={setModel}
              placeholder={t("modelPlaceholder")}
              emptyText={t("noMatch")}
            />
            {models && models.length === 0 && <p className="text-xs text-orange-600 dark:text-orange-400">{t("noModels")}</p>}
            <div className="flex flex-col gap-1">
              <label htmlFor="playground-temperature" className="flex justify-between text-sm font-medium text-zinc-700 dark:text-zinc-300">
                <span>{t("temperature")}</span>
                <span className="font-mono" data-testid="temperature-value">
                  {temperature}
                </span>
              </label>
              <input
                id="playground-temperature"
                type="range"
                className="accent-blue-600"
                min={TEMPERATURE.min}
                max={TEMPERATURE.max}
                step={TEMPERATURE.step}
                value={Math.max(TEMPERATURE.min, temperature)}
                onChange={(e) => setTemperature(clampTemperature(Number(e.target.value)))}
              />
            </div>
            <Field
              label={t("maxTokens")}
              hint={t("maxTokensHint")}
              type="number"
              min={0}
              step={1}
              inputMode="numeric"
              value={maxTokens}
              onChange={(e) => setMaxTokens(e.target.value)}
            />
            <TextareaField
              label={t("systemPrompt")}
              hint={t("systemPromptHint")}
              rows={5}
              value={systemPrompt}
              onChange={(e) => setSystemPrompt(e.target.value)}
            />
          </div>
        </div>
      </aside>

      <section
        aria-label={t("chat")}
        className="flex min-h-[30rem] min-w-0 flex-1 flex-col rounded-lg border border-zinc-200 bg-white md:min-h-0 dark:border-zinc-800 dark:bg-zinc-900"
      >
        <header className="flex items-center justify-between gap-3 border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
          <div className="min-w-0">
            <h1 className="text-base font-semibold">{t("title")}</h1>
            <p className="truncate text-sm text-zinc-700 dark:text-zinc-300" data-testid="conversation-name">
              {conversation.name || t("untitled")}
            </p>
            <p className="truncate text-xs text-zinc-500 dark:text-zinc-400">{t("subtitle", { model, group: group || "-" })}</p>
          </div>
          <Button variant="secondary" size="sm" onClick={clearContext}>
            {t("clear")}
          </Button>
        </header>
        {expired && (
          <div className="px-4 pt-3">
            <Alert tone="warning">{t("expired")}</Alert>
          </div>
        )}
        <ol ref={list} className="flex flex-1 flex-col gap-3 overflow-y-auto p-4" aria-live="polite">
          {messages.map((m) => (
            <ChatMessageView key={m.id} message={m} onRegenerate={canRegenerate && m === lastReply ? regenerate : undefined} />
          ))}
        </ol>
        <form onSubmit={send} className="flex items-end gap-2 border-t border-zinc-200 p-3 dark:border-zinc-800">
          <Textarea
            aria-label={t("input")}
            rows={2}
            className="resize-none"
            value={input}
            placeholder={t("inputPlaceholder")}
            onChange={(e) => setInput(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                e.currentTarget.form?.requestSubmit();
              }
            }}
          />
          {busy ? (
            <Button variant="secondary" onClick={stop}>
              <Square className="h-3.5 w-3.5" aria-hidden />
              {t("stop")}
            </Button>
          ) : (
            <Button type="submit" disabled={!input.trim() || !model}>
              {t("send")}
            </Button>
          )}
        </form>
      </section>
    </div>
  );
}
