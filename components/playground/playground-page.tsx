"use client";
// /playground (docs/console-ui.md): a side panel with group, model, temperature, max
// tokens and system prompt; a chat that starts with a greeting exchange and streams the
// reply from POST /pg/chat/completions (the console session pays, no token).
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState, type FormEvent } from "react";
import useSWR from "swr";
import { useSessionUser } from "@/components/layout/providers";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Field, SelectField } from "@/components/ui/input";
import { Textarea, TextareaField } from "@/components/ui/textarea";
import { reportFailure, requestHeaders } from "@/lib/client/api";
import {
  chatRequest,
  clampTemperature,
  DEFAULT_MAX_TOKENS,
  DEFAULT_MODEL,
  failedAnswerText,
  FIRST_MESSAGE_ID,
  greeting,
  parseMaxTokens,
  readStreamData,
  TEMPERATURE,
  type ChatMessage,
} from "@/lib/client/playground";
import { StreamClient } from "@/lib/client/stream-client";
import { ModelPicker } from "./model-picker";

type Groups = Record<string, { desc: string; ratio: number }>;

export function PlaygroundPage() {
  const t = useTranslations("playground");
  const user = useSessionUser();
  const startMessages = () => greeting(t("greetingUser"), t("greetingAssistant"));
  const [messages, setMessages] = useState<ChatMessage[]>(startMessages);
  const [group, setGroup] = useState(user?.group ?? "");
  const [model, setModel] = useState(DEFAULT_MODEL);
  const [temperature, setTemperature] = useState<number>(TEMPERATURE.initial);
  const [maxTokens, setMaxTokens] = useState(String(DEFAULT_MAX_TOKENS));
  const [systemPrompt, setSystemPrompt] = useState(() => t("defaultSystemPrompt"));
  const [input, setInput] = useState("");
  const [panelOpen, setPanelOpen] = useState(false);
  const [expired, setExpired] = useState(false);
  const nextId = useRef(FIRST_MESSAGE_ID);
  const stream = useRef<StreamClient | null>(null);
  const list = useRef<HTMLOListElement | null>(null);
  const modelChosen = useRef(false);

  const { data: groups } = useSWR<Groups>("/api/user/self/groups");
  const { data: models } = useSWR<string[]>("/api/user/models");

  useEffect(() => {
    const flag = new URLSearchParams(window.location.search).get("expired");
    setExpired(flag !== null && flag !== "false");
  }, []);
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

  const busy = messages.some((m) => m.status === "loading" || m.status === "incomplete");
  const newId = () => String(nextId.current++);

  function patch(id: string, fn: (m: ChatMessage) => ChatMessage) {
    setMessages((all) => all.map((m) => (m.id === id ? fn(m) : m)));
  }
  const fail = (id: string, text: string) => patch(id, (m) => ({ ...m, status: "error", content: m.content ? `${m.content}\n${text}` : text }));

  async function send(e?: FormEvent) {
    e?.preventDefault();
    const text = input.trim();
    if (!text || busy || !model) return;
    const now = Date.now();
    const question: ChatMessage = { id: newId(), role: "user", content: text, createAt: now, status: "complete" };
    const replyId = newId();
    const history = [...messages, question];
    setMessages([...history, { id: replyId, role: "assistant", content: "", createAt: now, status: "loading" }]);
    setInput("");
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
      if (step.kind === "delta") patch(replyId, (m) => ({ ...m, status: "incomplete", content: m.content + step.text }));
      else {
        finished = true;
        if (step.kind === "done") patch(replyId, (m) => ({ ...m, status: "complete" }));
        else fail(replyId, step.text);
        client.close();
      }
    });
    client.on("error", (failure) => {
      finished = true;
      if ("error" in failure) fail(replyId, failure.error.message);
      else {
        fail(replyId, failedAnswerText(failure.status, failure.body));
        // The session is gone: the catalogue logs out and goes to log in again.
        if (failure.status === 401) reportFailure({ kind: "expired" });
      }
    });
    await client.stream();
    // The stream closed without [DONE] (or was stopped): what arrived is the reply.
    if (!finished) patch(replyId, (m) => (m.status === "error" ? m : { ...m, status: "complete" }));
    if (stream.current === client) stream.current = null;
  }

  function clearContext() {
    stream.current?.close();
    stream.current = null;
    setMessages(startMessages());
  }

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
        <div
          id="playground-settings"
          className={cn(
            "flex-col gap-4 rounded-lg border border-zinc-200 bg-white p-4 md:flex dark:border-zinc-800 dark:bg-zinc-900",
            panelOpen ? "flex" : "hidden",
          )}
        >
          <h2 className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">{t("settings")}</h2>
          <SelectField label={t("group")} value={group} onChange={(e) => setGroup(e.target.value)}>
            {groupOptions.length === 0 && <option value={group}>{group}</option>}
            {groupOptions.map(([g, info]) => (
              <option key={g} value={g}>
                {info.desc && info.desc !== g ? `${g} · ${info.desc}` : g} ({t("ratio", { ratio: info.ratio })})
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
      </aside>

      <section
        aria-label={t("chat")}
        className="flex min-h-[30rem] min-w-0 flex-1 flex-col rounded-lg border border-zinc-200 bg-white md:min-h-0 dark:border-zinc-800 dark:bg-zinc-900"
      >
        <header className="flex items-center justify-between gap-3 border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
          <div className="min-w-0">
            <h1 className="text-base font-semibold">{t("title")}</h1>
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
            <li key={m.id} className={cn("flex", m.role === "user" ? "justify-end" : "justify-start")}>
              <div
                data-testid={`chat-${m.role}`}
                data-status={m.status}
                className={cn(
                  "max-w-[80%] rounded-lg px-3 py-2 text-sm break-words whitespace-pre-wrap",
                  m.role === "user" ? "bg-blue-600 text-white" : "bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100",
                  m.status === "error" && "border border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950/50 dark:text-red-200",
                )}
              >
                {m.content || (m.status === "loading" ? <span className="animate-pulse text-zinc-500 dark:text-zinc-400">{t("thinking")}</span> : "")}
              </div>
            </li>
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
          <Button type="submit" disabled={busy || !input.trim() || !model}>
            {busy ? t("sending") : t("send")}
          </Button>
        </form>
      </section>
    </div>
  );
}
