"use client";
// The page size remembered under page-size (docs/product-rules.md, "Relay console pages"). Read after mount (the server
// cannot know it); null until then, so that a list is fetched once at the right size.
import { useEffect, useState } from "react";
import { parsePageSize, readItem, STORAGE_KEYS, writeItem, type StorageKey } from "@/lib/client/storage";

// A list with its own memory (the admin messages: message-page-size) passes its key.
export function usePageSize(key: StorageKey = STORAGE_KEYS.pageSize): [number | null, (n: number) => void] {
  const [size, setSize] = useState<number | null>(null);
  useEffect(() => setSize(parsePageSize(readItem(key))), [key]);
  return [
    size,
    (n: number) => {
      writeItem(key, String(n));
      setSize(n);
    },
  ];
}
