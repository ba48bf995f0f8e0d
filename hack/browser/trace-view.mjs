// Draws one trace, as Jaeger's query API returns it (GET /api/traces/<id>), as a waterfall in Debian's Chromium and
// saves a screenshot: a row per span, nested under its parent, coloured by service, with a bar from its start to its
// end and the attributes that say what happened (the endpoint chosen, the profile, token counts, queue and prefill
// times). The page is built in memory and loads nothing. Prints the number of spans drawn.
//
//   node trace-view.mjs <playwright-dir> <trace.json> <screenshot.png>
import { createRequire } from "node:module";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [playwrightDir, traceFile, screenshot] = process.argv.slice(2);
if (!screenshot) {
  console.error("usage: trace-view.mjs <playwright-dir> <trace.json> <screenshot.png>");
  process.exit(2);
}
const { chromium } = createRequire(join(playwrightDir, "package.json"))("playwright-core");
const answer = JSON.parse(readFileSync(traceFile, "utf8"));
const trace = Array.isArray(answer.data) ? answer.data[0] : answer;
if (!trace || !Array.isArray(trace.spans) || trace.spans.length === 0) {
  console.error("trace-view: no spans in " + traceFile);
  process.exit(1);
}

const escape = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const byId = new Map(trace.spans.map((s) => [s.spanID, s]));
const parentOf = (s) => (s.references || []).find((r) => r.refType === "CHILD_OF" && byId.has(r.spanID))?.spanID;
const children = new Map();
for (const s of trace.spans) {
  const p = parentOf(s) ?? "";
  if (!children.has(p)) children.set(p, []);
  children.get(p).push(s);
}
for (const list of children.values()) list.sort((a, b) => a.startTime - b.startTime);
const rows = [];
const walk = (parent, depth) => {
  for (const s of children.get(parent) || []) {
    rows.push({ span: s, depth });
    walk(s.spanID, depth + 1);
  }
};
walk("", 0);

const start = Math.min(...trace.spans.map((s) => s.startTime));
const end = Math.max(...trace.spans.map((s) => s.startTime + s.duration));
const total = Math.max(1, end - start);
const services = [...new Set(trace.spans.map((s) => trace.processes[s.processID]?.serviceName ?? "?"))];
const palette = ["#2563eb", "#059669", "#d97706", "#7c3aed", "#dc2626", "#0891b2"];
const colour = (service) => palette[services.indexOf(service) % palette.length];
const ms = (us) => (us >= 1000 ? (us / 1000).toFixed(us >= 100000 ? 0 : 1) + " ms" : us + " µs");
const shown = (tags) => (tags || [])
  .filter((t) => !["span.kind", "otel.scope.name", "otel.scope.version", "internal.span.format"].includes(t.key))
  .slice(0, 6).map((t) => `${t.key}=${t.value}`).join("  ");

const body = rows.map(({ span, depth }) => {
  const service = trace.processes[span.processID]?.serviceName ?? "?";
  const left = ((span.startTime - start) / total) * 100;
  const width = Math.max(0.4, (span.duration / total) * 100);
  return `<tr>
    <td class="name" style="padding-left:${8 + depth * 16}px"><span class="dot" style="background:${colour(service)}">
      </span><b>${escape(service)}</b> ${escape(span.operationName)}<div class="tags">${escape(shown(span.tags))}</div></td>
    <td class="bar"><div style="margin-left:${left}%;width:${width}%;background:${colour(service)}"></div>
      <span class="dur">${ms(span.duration)}</span></td></tr>`;
}).join("\n");

const html = `<!doctype html><html><head><meta charset="utf-8"><style>
  body { font: 13px system-ui, sans-serif; margin: 16px; color: #1f2937; }
  h1 { font-size: 16px; margin: 0 0 4px; } .sub { color: #6b7280; margin-bottom: 12px; }
  table { border-collapse: collapse; width: 100%; } td { border-top: 1px solid #e5e7eb; padding: 5px 8px; }
  td.name { width: 46%; } td.bar { position: relative; } td.bar div { height: 14px; border-radius: 3px; }
  .dur { color: #6b7280; font-size: 11px; } .tags { color: #6b7280; font: 11px ui-monospace, monospace; }
  .dot { display: inline-block; width: 9px; height: 9px; border-radius: 50%; margin-right: 6px; }
</style></head><body>
  <h1>trace ${escape(trace.traceID)}</h1>
  <div class="sub">${rows.length} spans · ${services.map(escape).join(", ")} · ${ms(total)}</div>
  <table>${body}</table></body></html>`;

const userData = mkdtempSync(join(tmpdir(), "modelplane-chromium-"));
const context = await chromium.launchPersistentContext(userData, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  viewport: { width: 1360, height: 200 + rows.length * 44 },
  deviceScaleFactor: 1,
});
try {
  const page = await context.newPage();
  await context.route("**/*", (route) => route.abort()); // the page is whole; nothing may be fetched
  await page.setContent(html);
  await page.screenshot({ path: screenshot, fullPage: true });
  console.log(JSON.stringify({ spans: rows.length, services }));
} finally {
  await context.close();
  rmSync(userData, { recursive: true, force: true });
}
