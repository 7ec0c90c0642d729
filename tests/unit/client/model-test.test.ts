// The model test panel's call: whether a failed test is retried is the server's isRetryable
// (docs/product-rules.md, "Relay console pages"), not a guess from the envelope.
import { afterEach, describe, expect, it, vi } from "vitest";
import { testChannelModel } from "@/components/channels/model-test-dialog";
import { runModelTests } from "@/lib/client/model-tests";

function stub(answer: unknown) {
  vi.stubGlobal("window", {
    localStorage: { getItem: () => JSON.stringify({ id: 1 }), setItem: () => {}, removeItem: () => {} },
    location: { pathname: "/admin/channels", search: "", assign: vi.fn() },
  });
  const fetch = vi.fn(async () => new Response(JSON.stringify(answer), { status: 200 }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}
const text = (k: string) => k;
const noSleep = async () => {};

afterEach(() => vi.unstubAllGlobals());

describe("model test time", () => {
  it("shows the server's time for a failed test, not the browser's round trip", async () => {
    stub({ success: false, message: "upstream said no", time: 7.25, isRetryable: true });
    expect(await testChannelModel(7, "gpt-x", text)).toMatchObject({ success: false, time: 7.25 });
  });
});

describe("model test retries", () => {
  it("does not retry a failure the server calls non-retryable (bad key, unknown model)", async () => {
    const fetch = stub({ success: false, message: "401: Incorrect API key provided", time: 0.1, isRetryable: false });
    const o = await testChannelModel(7, "gpt-x", text);
    expect(o).toMatchObject({ success: false, retryable: false, message: "401: Incorrect API key provided" });
    const [r] = await runModelTests({ models: ["gpt-x"], test: (m, s) => testChannelModel(7, m, text, s), onResult: () => {}, sleep: noSleep });
    expect(r).toMatchObject({ success: false, retryCount: 0, isRetryable: false });
    expect(fetch).toHaveBeenCalledTimes(2); // one direct call, one in the run: no retry
  });

  it("retries a retryable failure twice", async () => {
    const fetch = stub({ success: false, message: "503: overloaded", time: 0.1, isRetryable: true });
    const [r] = await runModelTests({ models: ["gpt-x"], test: (m, s) => testChannelModel(7, m, text, s), onResult: () => {}, sleep: noSleep });
    expect(r).toMatchObject({ success: false, retryCount: 2, isRetryable: true });
    expect(fetch).toHaveBeenCalledTimes(3);
  });
});
