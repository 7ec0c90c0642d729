// A mock task upstream: one real node:http server speaking the Midjourney-proxy API
// (/mj/submit/*, /mj/task/list-by-condition, key in mj-api-secret), the Suno API
// (/suno/submit/*, /suno/fetch, Bearer key) and OpenAI videos (/v1/videos, Bearer key).
// Tasks move one step per poll: NOT_START/queued -> IN_PROGRESS 50% -> SUCCESS, unless the
// prompt says otherwise: "refuse" (the submit is refused), "fail" (the task fails),
// "forever" (it never ends). A Midjourney action whose button opens a modal (Inpaint,
// CustomZoom) answers code 21 with status MODAL and waits there until /mj/submit/modal names
// it; the task then runs from the start. Every request is recorded; callbacks can be sent on demand.
import http from "node:http";
import type { AddressInfo } from "node:net";

export const MJ_KEY = "mj-secret-0123456789abcdef";
export const SUNO_KEY = "suno-key-0123456789abcdef";
export const VIDEO_KEY = "sk-video-0123456789abcdef";
// a 1x1 PNG
export const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
export const MP4 = Buffer.from("000000186674797069736f6d0000020069736f6d69736f32", "hex");

type Task = { id: string; kind: "mj" | "suno" | "video"; prompt: string; steps: number; body: Record<string, unknown>; modal?: "waiting" | "done" };

export type RecordedTaskRequest = { method: string; url: string; headers: http.IncomingHttpHeaders; json: any };

export type MockTaskUpstream = {
  url: string;
  requests: RecordedTaskRequest[];
  tasks: Map<string, Task>;
  mjView(id: string): Record<string, unknown>;
  close(): Promise<void>;
};

const outcome = (t: Task) => (t.prompt.includes("forever") ? "forever" : t.prompt.includes("fail") ? "fail" : "ok");

export async function startMockTaskUpstream(): Promise<MockTaskUpstream> {
  const requests: RecordedTaskRequest[] = [];
  const tasks = new Map<string, Task>();
  let seq = 0;
  let url = "";

  const mjStatus = (t: Task) => {
    if (t.modal === "waiting") return { status: "MODAL", progress: "0%" };
    if (t.steps === 0) return { status: "NOT_START", progress: "0%" };
    if (t.steps === 1 || outcome(t) === "forever") return { status: "IN_PROGRESS", progress: "50%" };
    return outcome(t) === "fail" ? { status: "FAILURE", progress: "50%", failReason: "banned by the mock" } : { status: "SUCCESS", progress: "100%" };
  };
  const mjView = (id: string) => {
    const t = tasks.get(id)!;
    const s = mjStatus(t);
    return {
      id: t.id,
      action: "IMAGINE",
      prompt: t.prompt,
      promptEn: t.prompt,
      description: "/imagine " + t.prompt,
      submitTime: Date.now() - 5000,
      startTime: Date.now() - 4000,
      finishTime: s.status === "SUCCESS" || s.status === "FAILURE" ? Date.now() : 0,
      imageUrl: s.status === "SUCCESS" ? `${url}/img/${t.id}.png` : "",
      status: s.status,
      progress: s.progress,
      failReason: s.failReason ?? "",
      buttons: s.status === "SUCCESS" ? [{ customId: `MJ::JOB::upsample::1::${t.id}`, emoji: "", label: "U1", type: 2, style: 2 }] : [],
      properties: {},
    };
  };
  const sunoView = (t: Task) => {
    const end = t.steps >= 2 && outcome(t) !== "forever";
    const status = t.steps === 0 ? "SUBMITTED" : !end ? "IN_PROGRESS" : outcome(t) === "fail" ? "FAILURE" : "SUCCESS";
    return {
      task_id: t.id,
      action: "MUSIC",
      status,
      fail_reason: status === "FAILURE" ? "the mock refused to sing" : "",
      submit_time: Math.floor(Date.now() / 1000) - 5,
      start_time: Math.floor(Date.now() / 1000) - 4,
      finish_time: end ? Math.floor(Date.now() / 1000) : 0,
      progress: status === "SUCCESS" ? "100%" : t.steps ? "50%" : "0%",
      data: status === "SUCCESS" ? [{ id: `${t.id}-clip`, audio_url: `${url}/audio/${t.id}.mp3`, title: "mock song" }] : [],
    };
  };
  const videoView = (t: Task) => {
    const end = t.steps >= 2 && outcome(t) !== "forever";
    const status = t.steps === 0 ? "queued" : !end ? "in_progress" : outcome(t) === "fail" ? "failed" : "completed";
    return {
      id: t.id,
      object: "video",
      model: String(t.body.model),
      status,
      progress: status === "completed" ? 100 : t.steps ? 50 : 0,
      created_at: Math.floor(Date.now() / 1000) - 5,
      seconds: String(t.body.seconds ?? "4"),
      size: String(t.body.size ?? "720x1280"),
      ...(status === "failed" ? { error: { code: "moderation_blocked", message: "the mock blocked the video" } } : {}),
    };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let json: any = undefined;
      try {
        json = raw ? JSON.parse(raw) : undefined;
      } catch {
        json = undefined;
      }
      const path = (req.url ?? "/").split("?")[0];
      requests.push({ method: req.method ?? "GET", url: path, headers: req.headers, json });
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (path.startsWith("/img/")) {
        res.writeHead(200, { "content-type": "image/png", "content-length": PNG.length });
        return res.end(PNG);
      }
      if (path.startsWith("/mj/")) {
        if (req.headers["mj-api-secret"] !== MJ_KEY) return send(401, { code: 401, description: "bad secret" });
        const m = /^\/mj\/submit\/([a-z-]+)$/.exec(path);
        if (m && req.method === "POST") {
          const prompt = String(json?.prompt ?? json?.content ?? "");
          if (prompt.includes("refuse"))
            return send(200, { code: 24, description: "the prompt holds a banned word", result: null, properties: { bannedWord: "refuse" } });
          if (m[1] === "modal") {
            // the waiting task goes on under its own id
            const t = tasks.get(String(json?.taskId ?? ""));
            if (!t || t.modal !== "waiting") return send(200, { code: 4, description: "the task is not waiting for a modal", result: null, properties: {} });
            Object.assign(t, { modal: "done", steps: 0, prompt });
            return send(200, { code: 1, description: "Submit success", result: t.id, properties: { discordInstanceId: "mock" } });
          }
          const id = `${Date.now()}${String(++seq).padStart(4, "0")}`;
          const opensModal = m[1] === "action" && /::(inpaint|customzoom)::/i.test(String(json?.customId ?? ""));
          tasks.set(id, { id, kind: "mj", prompt, steps: 0, body: json ?? {}, modal: opensModal ? "waiting" : undefined });
          if (opensModal)
            return send(200, { code: 21, description: "Waiting for window confirm", result: id, properties: { status: "MODAL", discordInstanceId: "mock" } });
          return send(200, { code: 1, description: "Submit success", result: id, properties: { discordInstanceId: "mock" } });
        }
        if (path === "/mj/task/list-by-condition" && req.method === "POST") {
          const ids: string[] = Array.isArray(json?.ids) ? json.ids : [];
          const out = ids
            .filter((id) => tasks.has(id))
            .map((id) => {
              const t = tasks.get(id)!;
              const v = mjView(id);
              t.steps++;
              return v;
            });
          return send(200, out);
        }
        return send(404, { code: 404, description: "not found" });
      }
      if (path.startsWith("/suno/")) {
        if (req.headers.authorization !== `Bearer ${SUNO_KEY}`) return send(401, { code: "error", message: "bad key" });
        const m = /^\/suno\/submit\/(music|lyrics)$/.exec(path);
        if (m) {
          const prompt = String(json?.prompt ?? json?.gpt_description_prompt ?? "");
          if (prompt.includes("refuse")) return send(400, { code: "error", message: "the prompt is not allowed", data: null });
          const id = `suno-${++seq}`;
          tasks.set(id, { id, kind: "suno", prompt, steps: 0, body: json ?? {} });
          return send(200, { code: "success", message: "", data: id });
        }
        if (path === "/suno/fetch") {
          const ids: string[] = Array.isArray(json?.ids) ? json.ids : [];
          const out = ids
            .filter((id) => tasks.has(id))
            .map((id) => {
              const t = tasks.get(id)!;
              const v = sunoView(t);
              t.steps++;
              return v;
            });
          return send(200, { code: "success", message: "", data: out });
        }
        return send(404, { code: "error", message: "not found" });
      }
      if (path.startsWith("/v1/videos")) {
        if (req.headers.authorization !== `Bearer ${VIDEO_KEY}`) return send(401, { error: { message: "bad key", type: "invalid_request_error" } });
        if (path === "/v1/videos" && req.method === "POST") {
          const prompt = String(json?.prompt ?? "");
          if (prompt.includes("refuse"))
            return send(400, { error: { message: "the prompt is not allowed", type: "invalid_request_error", code: "moderation_blocked" } });
          const id = `video_mock${++seq}`;
          const t: Task = { id, kind: "video", prompt, steps: 0, body: json ?? {} };
          tasks.set(id, t);
          return send(200, videoView(t));
        }
        const m = /^\/v1\/videos\/([^/]+)(\/content)?$/.exec(path);
        const t = m ? tasks.get(m[1]) : undefined;
        if (!t) return send(404, { error: { message: "no such video", type: "invalid_request_error" } });
        if (m![2]) {
          // a video whose file the upstream cannot give: the connection drops
          if (t.prompt.includes("lost file")) return void res.destroy();
          res.writeHead(200, { "content-type": "video/mp4", "content-length": MP4.length });
          return res.end(MP4);
        }
        const v = videoView(t);
        t.steps++;
        return send(200, v);
      }
      send(404, { error: "not found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    tasks,
    mjView,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
