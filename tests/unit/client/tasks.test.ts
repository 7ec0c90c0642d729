import { describe, expect, it } from "vitest";
import {
  channelColor,
  defaultDrawingRange,
  defaultTaskRange,
  elapsedColor,
  elapsedSeconds,
  mjCodeColor,
  progressPercent,
  TASK_STATUS_COLOR,
  TASK_STATUSES,
  taskStatusKey,
} from "@/lib/client/tasks";

describe("task status names", () => {
  it("keeps every status the pages name, and shows the empty one as submitting", () => {
    for (const s of TASK_STATUSES) expect(taskStatusKey(s)).toBe(s);
    expect(taskStatusKey("NOT_START")).toBe("NOT_START");
    expect(taskStatusKey("IN_PROGRESS")).toBe("IN_PROGRESS");
    expect(taskStatusKey("QUEUED")).toBe("QUEUED");
    // a Midjourney task waiting for the client's modal (docs/tasks.md, "Modals")
    expect(taskStatusKey("MODAL")).toBe("MODAL");
    expect(taskStatusKey("")).toBe("SUBMITTING");
    expect(taskStatusKey(null)).toBe("SUBMITTING");
    expect(taskStatusKey(undefined)).toBe("SUBMITTING");
  });

  it("shows anything else as unknown (case counts: the upstreams write capitals)", () => {
    expect(taskStatusKey("EXPLODED")).toBe("UNKNOWN");
    expect(taskStatusKey("success")).toBe("UNKNOWN");
    expect(taskStatusKey("UNKNOWN")).toBe("UNKNOWN");
  });

  it("has a colour for every key", () => {
    for (const s of [...TASK_STATUSES, "SUBMITTING" as const]) expect(TASK_STATUS_COLOR[s], s).toBeTruthy();
    expect(TASK_STATUS_COLOR.SUCCESS).toBe("green");
    expect(TASK_STATUS_COLOR.FAILURE).toBe("red");
  });
});

describe("elapsed time", () => {
  it("is finish minus submit, and nothing while unfinished or inconsistent", () => {
    expect(elapsedSeconds(1000, 1045)).toBe(45);
    expect(elapsedSeconds(1000, 0)).toBeNull();
    expect(elapsedSeconds(0, 1000)).toBeNull();
    expect(elapsedSeconds(1000, 999)).toBeNull();
    expect(elapsedSeconds(1000, 1000)).toBe(0);
  });

  it("is green up to 60 seconds and red above", () => {
    expect(elapsedColor(0)).toBe("green");
    expect(elapsedColor(60)).toBe("green");
    expect(elapsedColor(61)).toBe("red");
    expect(elapsedColor(3600)).toBe("red");
  });
});

describe("default ranges", () => {
  it("task log: from today 00:00 (local time), no end", () => {
    const now = new Date(2026, 4, 17, 15, 42, 9, 500).getTime();
    expect(defaultTaskRange(now)).toEqual({ start: Math.floor(new Date(2026, 4, 17, 0, 0, 0).getTime() / 1000), end: null });
    // just after midnight: the same day's 00:00
    const early = new Date(2026, 4, 17, 0, 0, 1).getTime();
    expect(defaultTaskRange(early).start).toBe(Math.floor(new Date(2026, 4, 17).getTime() / 1000));
  });

  it("drawing log: 30 days back to one hour ahead, in seconds", () => {
    const now = Date.UTC(2026, 4, 17, 15, 42, 9, 700);
    const s = Math.floor(now / 1000);
    expect(defaultDrawingRange(now)).toEqual({ start: s - 30 * 86400, end: s + 3600 });
  });
});

describe("progress, channel tags and submit codes", () => {
  it("reads a percent from text or a number, bounded to 0..100", () => {
    expect(progressPercent("45%")).toBe(45);
    expect(progressPercent(45)).toBe(45);
    expect(progressPercent("150%")).toBe(100);
    expect(progressPercent(-3)).toBe(0);
    expect(progressPercent("")).toBe(0);
    expect(progressPercent(null)).toBe(0);
    expect(progressPercent("n/a")).toBe(0);
  });

  it("gives a channel the same colour every time", () => {
    expect(channelColor(7)).toBe(channelColor(7));
    expect(channelColor(1)).not.toBe(channelColor(2));
  });

  it("colours the proxy's submit codes: 1 green, 21 and 22 orange, none grey, others red", () => {
    expect(mjCodeColor(1)).toBe("green");
    expect(mjCodeColor(21)).toBe("orange");
    expect(mjCodeColor(22)).toBe("orange");
    expect(mjCodeColor(0)).toBe("gray");
    expect(mjCodeColor(24)).toBe("red");
  });
});
