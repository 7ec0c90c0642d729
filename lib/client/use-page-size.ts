"use client";
// The page size remembered under page-size (docs/product-rules.md, "Relay console pages"). Read after mount (the server
// cannot know it); null until then, so that a list is fetched once at the right size.
import { useEffect, useState } from "react";
import { parsePageSize, readItem, STORAGE_KEYS, writeItem } from "@/lib/client/storage";

export function usePageSize(): [number | null, (n: number) => void] {
  const [size, setSize] = useState<number | null>(null);
  useEffect(() => setSize(parsePageSize(readItem(STORAGE_KEYS.pageSize))), []);
  return [
    size,
    (n: number) => {
      writeItem(STORAGE_KEYS.pageSize, String(n));
      setSize(n);
    },
  ];
}
