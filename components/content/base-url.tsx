"use client";
import { useEffect, useState } from "react";

// The relay's base URL: the configured server address, else the address this page came from.
export function BaseUrl({ serverAddress }: { serverAddress: string }) {
  const [origin, setOrigin] = useState(serverAddress);
  useEffect(() => {
    if (!serverAddress) setOrigin(window.location.origin);
  }, [serverAddress]);
  return <>{origin.replace(/\/$/, "") + "/v1"}</>;
}
