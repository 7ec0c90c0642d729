// Multi-key channels' pure parts (docs/channels-tokens-billing.md, "Multi-key channels"): the
// key list read from the editor, the per-key state kept when keys are removed, and the key
// choice of one attempt (random or in turn, among the enabled keys not yet tried).
import { describe, expect, it } from "vitest";
import { keyRows, newMultiKeyInfo, parseChannelInfo, splitKeys, withKeyStatus, withoutKeys, enabledKeyCount } from "@/lib/channels/multi-key-rules";
import { pickKey } from "@/lib/relay/select";

describe("splitKeys", () => {
  it("reads one key per line, trimmed, blank lines and duplicates dropped", () => {
    expect(splitKeys(" a \n\nb\r\na\n c")).toEqual(["a", "b", "c"]);
  });
  it("reads a JSON array, objects kept as one line of compact JSON", () => {
    expect(splitKeys('["a", {"type": "service_account", "k": 1}]')).toEqual(["a", '{"type":"service_account","k":1}']);
  });
});

describe("channel_info", () => {
  it("reads anything that is not a multi-key state as a single-key channel", () => {
    for (const t of ["", "x", "[]", '{"is_multi_key": false}', "null"]) expect(parseChannelInfo(t).is_multi_key).toBe(false);
    const info = parseChannelInfo('{"is_multi_key":true,"multi_key_size":2,"multi_key_mode":"polling","multi_key_status_list":{"1":3,"x":2}}');
    expect(info).toMatchObject({ multi_key_size: 2, multi_key_mode: "polling", multi_key_status_list: { "1": 3 } });
  });

  it("keeps each key's status, reason and time when an earlier key is removed", () => {
    let info = newMultiKeyInfo(4, "random");
    info = withKeyStatus(info, 1, 3, "status 401: bad key", 100);
    info = withKeyStatus(info, 3, 2, "", 200);
    expect(enabledKeyCount(info)).toBe(2);
    const next = withoutKeys(info, new Set([0]));
    expect(keyRows(next)).toEqual([
      { index: 0, status: 3, reason: "status 401: bad key", time: 100 },
      { index: 1, status: 1, reason: "", time: 0 },
      { index: 2, status: 2, reason: "", time: 200 },
    ]);
    // enabling a key forgets why it was disabled
    expect(keyRows(withKeyStatus(next, 0, 1, "", 0))[0]).toEqual({ index: 0, status: 1, reason: "", time: 0 });
  });
});

describe("pickKey", () => {
  const keys = [
    { index: 0, key: "k0" },
    { index: 2, key: "k2" },
    { index: 5, key: "k5" },
  ];

  it("takes the enabled keys in turn in polling mode, skipping the ones tried", () => {
    const ch = { id: 9001, keys, multi_key_mode: "polling" as const };
    expect([1, 2, 3, 4, 5, 6].map(() => pickKey(ch)?.index)).toEqual([0, 2, 5, 0, 2, 5]);
    expect(pickKey(ch, new Set([0, 2]))?.index).toBe(5);
    expect(pickKey(ch, new Set([0, 2, 5]))).toBeNull();
  });

  it("takes one at random otherwise, among the keys not tried", () => {
    const ch = { id: 9002, keys, multi_key_mode: "random" as const };
    expect(pickKey(ch, undefined, () => 0)?.index).toBe(0);
    expect(pickKey(ch, undefined, () => 0.5)?.index).toBe(2);
    expect(pickKey(ch, undefined, () => 0.9999)?.index).toBe(5);
    expect(pickKey(ch, new Set([0]), () => 0)?.index).toBe(2);
    expect(pickKey({ id: 9003, keys: [], multi_key_mode: "random" })).toBeNull();
  });
});
