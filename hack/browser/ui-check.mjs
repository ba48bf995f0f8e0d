// Opens the router's live page (/ui) in Debian's Chromium through playwright-core and checks it as a person would
// see it: the endpoint rows and the decisions appear, the numbers change while the page stays open, nothing is
// logged as an error, no request leaves loopback, and markup in a model name shows as text. Prints one JSON line.
//
//   node ui-check.mjs <playwright-dir> <url of /ui> <screenshot.png> <signal-dir> <expected endpoint rows> <hostile>
//
// It talks to the test through files in <signal-dir>: it writes "opened" once the first rows are on the page (the
// test then sends more requests and load), waits for the page to show new decisions, takes the screenshot, writes
// "shot" (the test then sends a request whose model name is <hostile>), and waits for that row.
import { createRequire } from "node:module";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [playwrightDir, url, screenshot, signals, expectedRows, hostile] = process.argv.slice(2);
if (!hostile) {
  console.error("usage: ui-check.mjs <playwright-dir> <url> <screenshot> <signal-dir> <endpoint rows> <hostile>");
  process.exit(2);
}
const { chromium } = createRequire(join(playwrightDir, "package.json"))("playwright-core");
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);
const result = { consoleErrors: [], offLoopback: [], requests: 0 };
const userData = mkdtempSync(join(tmpdir(), "modelplane-chromium-"));
const deadline = (seconds) => ({ timeout: seconds * 1000 });
const waitFile = async (name, seconds) => {
  for (let i = 0; i < seconds * 10; i++) {
    if (existsSync(join(signals, name))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the test never wrote " + name);
};

// Without the background-networking flags Chromium itself tries the internet (and is refused).
const context = await chromium.launchPersistentContext(userData, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  viewport: { width: 1360, height: 1020 },
  deviceScaleFactor: 1,
});
try {
  await context.route("**/*", (route) => {
    const u = new URL(route.request().url());
    result.requests++;
    if (u.protocol === "data:") return route.continue();
    if (!LOOPBACK.has(u.hostname)) {
      result.offLoopback.push(route.request().url());
      return route.abort();
    }
    return route.continue();
  });
  const page = context.pages()[0] || (await context.newPage());
  page.on("console", (m) => { if (m.type() === "error") result.consoleErrors.push(m.text()); });
  page.on("pageerror", (e) => result.consoleErrors.push(String(e)));
  await page.goto(url, { waitUntil: "load", ...deadline(30) });
  result.title = await page.title();
  await page.waitForFunction((n) => document.querySelectorAll("tr.endpoint").length >= n, Number(expectedRows),
    deadline(30));
  await page.waitForFunction(() => document.querySelectorAll("tr.decision").length > 0, null, deadline(30));
  result.endpointRows = await page.locator("tr.endpoint").count();
  result.endpointNames = await page.locator("tr.endpoint").evaluateAll((rows) => rows.map((r) => r.dataset.endpoint));
  result.decisionsBefore = Number(await page.evaluate(() => document.body.dataset.decisionsTotal));
  result.firstRowBefore = await page.locator("tr.decision").first().innerText();
  writeFileSync(join(signals, "opened"), "");

  // Live: the same page, no reload, shows the decisions the test sends now, and the endpoints' numbers move.
  await page.waitForFunction((before) => Number(document.body.dataset.decisionsTotal) >= before + 10,
    result.decisionsBefore, deadline(60));
  await page.waitForFunction(() => [...document.querySelectorAll("tr.endpoint td.running")]
    .some((td) => Number(td.textContent) > 0), null, deadline(30));
  result.decisionsAfter = Number(await page.evaluate(() => document.body.dataset.decisionsTotal));
  result.firstRowAfter = await page.locator("tr.decision").first().innerText();
  result.runningSeen = true;
  await page.waitForFunction(() => document.getElementById("rps").textContent !== "–", null, deadline(15));
  result.requestsPerSecond = await page.locator("#rps").innerText();
  result.ttftP50 = await page.locator("#p50").innerText();
  result.sparklinePaths = await page.locator(".card svg path").count();
  await waitFile("shoot", 300); // the test lets its load run first, so the lines have some history
  await page.waitForTimeout(1500);
  await page.screenshot({ path: screenshot, fullPage: false });
  result.screenshot = screenshot;
  writeFileSync(join(signals, "shot"), "");

  // Markup in a model name is shown as text: no element made from it, no script of it run.
  await page.waitForFunction((h) => [...document.querySelectorAll("tr.decision td.model")]
    .some((td) => td.textContent.includes(h)), hostile, deadline(60));
  result.hostileShownAsText = true;
  result.scriptElements = await page.evaluate(() => document.querySelectorAll("script").length);
  result.injectedElements = await page.evaluate(() => document.querySelectorAll("main img, main b, main iframe").length);
  result.xss = await page.evaluate(() => window.__modelplaneXss === undefined ? null : window.__modelplaneXss);
  result.polls = Number(await page.evaluate(() => document.body.dataset.polls));
  result.errorBanner = await page.locator("#error").innerText();
} catch (e) {
  result.failure = String(e && e.stack || e);
} finally {
  await context.close();
  rmSync(userData, { recursive: true, force: true });
}
console.log(JSON.stringify(result));
process.exit(result.failure ? 1 : 0);
