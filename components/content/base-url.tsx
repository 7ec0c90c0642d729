"use client";
import { useEffect, useState } from "react";

// The site's address: the configured server address, else the address this page came from
// (no trailing slash). The first render uses the option, so the server and the browser agree.
export function useSiteAddress(serverAddress: string): string {
  const [origin, setOrigin] = useState(serverAddress);
  useEffect(() => {
    if (!serverAddress) setOrigin(window.location.origin);
  }, [serverAddress]);
  return origin.replace(/\/$/, "");
}

// The relay's base URL.
export function BaseUrl({ serverAddress }: { serverAddress: string }) {
  return <>{useSiteAddress(serverAddress) + "/v1"}</>;
}
