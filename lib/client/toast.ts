// A tiny toast queue outside React, so that the API helper can report from anywhere. The
// <Toaster> component renders it; a message is either text or a key of messages/*.json.
export type ToastKind = "success" | "error" | "info" | "warning";
export type ToastContent = { text: string } | { key: string; values?: Record<string, string | number> };
export type Toast = { id: number; kind: ToastKind; content: ToastContent };

type Listener = (toasts: Toast[]) => void;

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();
const LIFETIME_MS = 3500;

function emit() {
  for (const l of listeners) l(toasts);
}

export function dismissToast(id: number) {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

export function pushToast(kind: ToastKind, content: ToastContent): number {
  const id = nextId++;
  toasts = [...toasts.slice(-4), { id, kind, content }];
  emit();
  if (typeof window !== "undefined") window.setTimeout(() => dismissToast(id), LIFETIME_MS);
  return id;
}

// Puts a toast in the place of another (a "testing…" toast by its result), whether or not
// that one is still shown.
export function replaceToast(id: number, kind: ToastKind, content: ToastContent): number {
  toasts = toasts.filter((t) => t.id !== id);
  return pushToast(kind, content);
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  listener(toasts);
  return () => listeners.delete(listener);
}

export const toast = {
  success: (content: ToastContent) => pushToast("success", content),
  error: (content: ToastContent) => pushToast("error", content),
  info: (content: ToastContent) => pushToast("info", content),
  warning: (content: ToastContent) => pushToast("warning", content),
};
