// The Sussex season walked in a real browser (run by scripts/browser-test, which installs
// what it needs and sets OUT, DATA, BIN, LEAGUE and ENTRIES). The walk starts the server
// itself, and restarts it on the same data with a later --today to move the season on.
// Every page it visits is checked with axe-core (no serious or critical violation) and at
// 390 px (nothing wider than the screen outside its own scroll box), and screenshotted at
// 390 and 1280 px into OUT.
const { OUT, DATA, BIN, LEAGUE, ENTRIES, NCL } = process.env;
const { chromium } = require(OUT + "/node_modules/playwright-core");
const { spawn, execFileSync } = require("child_process");
const fs = require("fs");
const AXE = fs.readFileSync(OUT + "/node_modules/axe-core/axe.min.js", "utf8");
const PASSWORD = "browser-test-password";

let server = null, base = "", port = 0, today = "";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
process.on("exit", () => server && server.kill("SIGKILL"));

// Starts (or restarts) the server on DATA with its clock set to `day`, on the same port.
async function start(day) {
  if (server) {
    const gone = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await gone;
  }
  const log = `${DATA}/server-${day}.log`;
  server = spawn(BIN, ["serve", "--bind", `127.0.0.1:${port}`, "--data", DATA, "--workers", "2", "--today", day],
    { stdio: ["ignore", "ignore", fs.openSync(log, "w")] });
  for (let i = 0; i < 600; i++) {
    const m = fs.readFileSync(log, "utf8").match(/listening on (\S+)/);
    if (m) { base = m[1]; port = Number(base.split(":").pop()); today = day; return; }
    await sleep(100);
  }
  throw new Error("the server did not start: " + fs.readFileSync(log, "utf8"));
}

const seen = [], pages = [];
// Checks the page as it stands (axe-core, 390 px) and takes its screenshots.
async function look(page, name) {
  if (!pages.includes(page)) pages.push(page);
  await page.evaluate(AXE);
  const bad = await page.evaluate(async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")}`));
  if (bad.length) throw new Error(`${name} (${page.url()}): accessibility:\n${bad.join("\n")}`);
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  if (wide > 390) {
    const culprits = await page.evaluate(() => [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > 391)
      .slice(0, 5).map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className} (${Math.round(e.getBoundingClientRect().right)} px)`));
    throw new Error(`${name} (${page.url()}): ${wide} px wide at a 390 px screen: ${culprits.join(", ")}`);
  }
  await page.screenshot({ path: `${OUT}/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${OUT}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize(size);
  seen.push(name);
}

// Fails the walk with the words of a refusal shown on the league's page.
async function noRefusal(page, what) {
  const said = await page.$("#season .error");
  if (said) throw new Error(`${what}: ${await said.textContent()}`);
}

// Uploads a league file (whose text says `word`) as a new league: its page's address.
async function upload(page, file, word) {
  await page.goto(base + "/leagues");
  await page.setInputFiles("#tomlFile", file);
  await page.waitForFunction((w) => document.getElementById("toml").value.includes(w), word);
  await page.click("form.upload button");
  await page.waitForSelector("text=Download the league file (TOML)");
  return page.url();
}

// Publishes what the preview shows, back on the league's page.
async function publish(page, name) {
  await page.waitForSelector("#publish, #season .error", { timeout: 120000 });
  await noRefusal(page, "refused");
  if (name) await look(page, name);
  const changes = await page.$$eval("#changes li", (l) => l.map((x) => x.textContent));
  const number = (await page.textContent("#publish")).match(/version (\d+)/)[1];
  await page.click("#publish");
  await page.waitForSelector("#season");
  await noRefusal(page, "publishing");
  // Published under the number the button gave.
  await page.waitForSelector(`#season a:text-is("Version ${number}")`);
  return changes;
}

const iso = (d) => d.toISOString().slice(0, 10);
const addDays = (day, n) => iso(new Date(Date.parse(day + "T00:00:00Z") + n * 86400000));

(async () => {
  await start("2026-09-01");
  let browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  let ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, locale: "en-GB" });
  let page = await ctx.newPage();
  await page.goto(base + "/");
  await look(page, "login");
  // A new secretary creates an account on the page.
  await page.click("text=Create an account");
  await look(page, "signup");
  await page.fill("#name", "secretary");
  await page.fill("#password", PASSWORD);
  await page.fill("#again", PASSWORD);
  await page.click("button[type=submit]");
  await page.waitForSelector("text=Start a league");
  await look(page, "leagues");
  // A league started with the season form: the end before the start is named next to it.
  await page.fill("#f-name", "Downs League 2026-7");
  await page.fill("#f-start", "2026-10-05");
  await page.fill("#f-end", "2026-09-01");
  await page.click("text=Create the league");
  await page.waitForSelector("#end-error p");
  await look(page, "form-error");
  await page.fill("#f-end", "2027-03-26");
  await page.click("text=Create the league");
  await page.waitForSelector("text=the league has no teams");
  await look(page, "new-league");
  // The Sussex league file uploaded as another league, then its entries spreadsheet imported
  // on its page: first a copy with one bad cell (named by sheet, row and column, nothing
  // saved), then the real one, saved as version 2 with what it added.
  const hub = await upload(page, LEAGUE, "Sussex");
  const leagueId = hub.split("/").pop();
  await page.setInputFiles("#entriesFile", OUT + "/entries-bad.xlsx");
  await page.click("form.entries button");
  await page.waitForSelector("#season .error");
  const bad = await page.textContent("#season .error");
  if (!bad.includes("sheet Teams, row 3, column I (Avoid)")) throw new Error("the bad cell is not named: " + bad);
  await look(page, "import-error");
  await page.setInputFiles("#entriesFile", ENTRIES);
  await page.click("form.entries button");
  await page.waitForSelector("text=The entries are saved as version 2 of the league.");
  await look(page, "imported");
  // A long list is folded behind its count; opened by keyboard, it shows the teams by division.
  await page.focus("#part-team summary");
  await page.keyboard.press("Enter");
  if (!(await page.isVisible("#part-team li >> text=Lewes 1")))
    throw new Error("the folded list of teams does not open");
  if ((await page.textContent("#part-team summary")).trim() !== "Show all 37")
    throw new Error("the folded list of teams does not give their number");
  // A team's dates on its month calendar: past the league's limit is refused by the field.
  await page.goto(hub + "/team/0");
  await page.waitForSelector("fieldset.calendar");
  await page.setViewportSize({ width: 390, height: 844 });
  const free = 'fieldset.calendar[data-key="unavailable"] input[type=checkbox]:not(:checked):not([disabled])';
  const before = Number(await page.textContent('fieldset.calendar[data-key="unavailable"] .n'));
  const max = Number(await page.getAttribute('fieldset.calendar[data-key="unavailable"] .count', "data-max"));
  const ticked = [];
  for (let i = 0; before + i <= max; i++) {
    const box = page.locator(free).nth(i * 3);
    ticked.push(await box.getAttribute("value"));
    await box.check();
  }
  await page.click("text=Save");
  await page.waitForSelector("#unavailable-error p");
  const said = await page.textContent("#unavailable-error");
  if (!said.includes(`the league allows at most ${max}`)) throw new Error("no limit error next to the calendar: " + said);
  await look(page, "calendar-error");
  await page.uncheck(`fieldset.calendar[data-key="unavailable"] input[value="${ticked[0]}"]`);
  await page.click("text=Save");
  await page.waitForSelector("text=Version 3.");
  await page.setViewportSize({ width: 1280, height: 900 });
  // A limit the league asks for, from its form: no three away in a row for the first team,
  // at a cost for each one over. Choosing its kind leaves the fields that kind reads (and any
  // filled in); a key its kind does not read is named next to its field.
  await page.goto(hub + "/constraint/new");
  await page.fill("#f-name", "No three away in a row");
  await page.fill("#f-days", "28");
  await page.selectOption("#f-kind", "in_a_row");
  if (!(await page.isHidden('div.field:has(legend:text-is("Against"))'))) throw new Error("a field in_a_row does not read is shown");
  if (!(await page.isVisible("#f-days"))) throw new Error("a field filled in was hidden");
  // A whole division ticked at once, then unticked; then one team.
  const teams = 'fieldset.teams:has(legend:text-is("Teams"))';
  await page.click(`${teams} button.tick-all >> nth=0`);
  const ticked1 = await page.locator(`${teams} fieldset.division >> nth=0`).locator("input:checked").count();
  const all1 = await page.locator(`${teams} fieldset.division >> nth=0`).locator("input").count();
  if (ticked1 !== all1 || all1 < 2) throw new Error(`tick all ticked ${ticked1} of ${all1}`);
  await page.click(`${teams} button.tick-all >> nth=0`);
  if ((await page.locator(`${teams} input:checked`).count()) !== 0) throw new Error("untick all left some ticked");
  await page.check(`${teams} input >> nth=0`);
  await page.selectOption("#f-side", "away");
  await page.fill("#f-weeks", "3");
  await page.fill("#f-max", "2");
  await page.fill("#f-weight", "5");
  await page.click("text=Save");
  await page.waitForSelector("#days-error p");
  await look(page, "limit-error");
  await page.fill("#f-days", "");
  await page.click("text=Save");
  await page.waitForSelector("text=Version 4.");
  await look(page, "limit");
  // A cup's form, read from the league file (its entrants ticked by division).
  await page.goto(hub + "/cup/0");
  if ((await page.inputValue("#f-name")) !== "Knock-Out Cup") throw new Error("the cup form does not show the Knock-Out Cup");
  await look(page, "cup-form");
  // A cup with zones shows them one a line, its name then its entrants.
  await page.goto(hub + "/cup/2");
  if (!(await page.inputValue("#f-zones")).startsWith("West: Horsham 1, Worthing 2"))
    throw new Error("the McArthur Cup's form does not show its West zone");
  await look(page, "cup-zones");
  await page.goto(hub);
  // Two drafts solved; draft 2's own report opened before choosing.
  await page.click("text=Solve it");
  await page.waitForFunction(() => document.getElementById("league").value.includes("Sussex"));
  await page.fill("#limit", "15");
  await page.fill("#drafts", "2");
  await page.click("#solve");
  await page.waitForSelector("#progressRow:not([hidden])");
  await page.waitForSelector("#report:not([hidden])", { timeout: 120000 });
  const frame = page.frameLocator("#report");
  await frame.locator("text=Division 1").first().click();
  await frame.locator("table.grid").first().waitFor();
  await look(page, "solved");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("a[download=\"fixtures.csv\"]")]);
  await download.saveAs(OUT + "/fixtures.csv");
  await page.click("#invite");
  await page.waitForSelector("#inviteLink");
  const invite = await page.$eval("#inviteLink", (a) => a.href);
  const job = (await page.$eval("#compareLink", (a) => a.href)).match(/jobs\/([0-9a-f]+)/)[1];
  const draft2 = await ctx.newPage();
  await draft2.goto(`${base}/api/jobs/${job}/drafts/2/report/`);
  await draft2.waitForSelector("text=Division 1");
  await look(draft2, "draft2-report");
  await draft2.close();
  // The committee: the invitation opened while logged out; the member signs up, comes back
  // to it, joins, lands on the league's page read-only and compares the drafts.
  const other = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "en-GB" });
  const member = await other.newPage();
  pages.push(member);
  await member.goto(invite);
  await member.click("a[href^=\"/signup\"]");
  await member.fill("#name", "committee");
  await member.fill("#password", PASSWORD);
  await member.fill("#again", PASSWORD);
  await member.click("button[type=submit]");
  await member.waitForSelector("text=Join the committee");
  await member.click("button[type=submit]");
  await member.waitForSelector("text=You are on this league's committee");
  if (await member.$("#season form")) throw new Error("the committee is offered a form");
  await look(member, "committee-hub");
  await member.click("text=compare them");
  await member.waitForSelector("text=drafts compared");
  if (await member.$(".choose")) throw new Error("a committee member must not be offered the choice");
  await look(member, "compare-committee");
  await other.close();
  // The secretary chooses draft 2; two clubs agree a new date for a November fixture before
  // publication (rule 2.6, a date `fixtures suggest` gives); one rerun keeps the rest; that
  // is published as version 1.
  await page.selectOption("#draftChoice", "2");
  await page.waitForFunction(() => document.getElementById("agreedFixture").options.length > 0);
  const draft2csv = await page.evaluate(async () => (await fetch(draftUrl())).text());
  fs.writeFileSync(OUT + "/draft2.csv", draft2csv);
  const pick = await page.$$eval("#agreedFixture option", (os) => os.find((o) => o.dataset.date.startsWith("2026-11")).value);
  const [home, away] = pick.split("\t");
  fs.writeFileSync(OUT + "/solved.toml", await page.inputValue("#league"));
  const suggested = JSON.parse(execFileSync(BIN,
    ["suggest", OUT + "/solved.toml", "--current", OUT + "/draft2.csv", "--fixture", `${home} v ${away}`, "--today", today, "--json"]).toString());
  const agreedDate = suggested[0].date;
  await page.selectOption("#agreedFixture", pick);
  await page.fill("#agreedDate", agreedDate);
  await page.click("#addAgreed");
  await page.click("#rerunAgreed");
  await page.waitForFunction(() => !document.getElementById("confirm").hidden || document.getElementById("errors").textContent, null, { timeout: 120000 });
  if (await page.textContent("#errors")) throw new Error("the rerun was refused: " + (await page.textContent("#errors")));
  await look(page, "agreed-preview");
  await page.click("#confirm");
  await page.waitForFunction(() => document.getElementById("published").textContent.includes("Version 1"));
  const url1 = await page.$eval("#published a", (a) => a.href);
  const v1 = await (await page.request.get(url1 + "fixtures.csv")).text();
  if (!v1.split("\n").some((l) => l.startsWith(agreedDate) && l.includes(`,${home},${away},`))) throw new Error("the agreed change is not in the published list");
  // The clubs' links: the latest list and one team's calendar, kept from version 1 on.
  const latest = url1 + "latest/";
  const latestPage = await (await page.request.get(latest)).text();
  const calUrl = latest + latestPage.match(/href="(ics\/[^"]+\.ics)"/)[1];
  const cal1 = await (await page.request.get(calUrl)).text();
  await page.goto(hub);
  await page.waitForSelector("text=Version 1");
  await look(page, "published");
  await browser.close();

  // Four weeks on: a new browser finds the season as it was left. A withdrawal (rule 11.2),
  // the Knock-Out Cup drawn, a postponement, each previewed, then published.
  await start("2026-09-30");
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" });
  page = await ctx.newPage();
  await page.goto(base + "/");
  await page.fill("#name", "secretary");
  await page.fill("#password", PASSWORD);
  await page.click("button[type=submit]");
  await page.goto(hub);
  await page.waitForSelector("text=Today is 30 Sep 2026.");
  await page.waitForSelector("#season >> text=Version 1");
  await look(page, "hub-later");
  await page.screenshot({ path: OUT + "/hub.png" });
  await page.selectOption("#withdraw-team", "Lewes 2");
  await page.click("#withdraw-team ~ button");
  const dropped = await publish(page, "withdraw-preview");
  if (!dropped.some((c) => c.includes("Lewes 2") && c.includes("is dropped"))) throw new Error("the withdrawal drops nothing: " + dropped);
  await page.evaluate(() => {
    const f = [...document.querySelectorAll("#season form")].find((f) => f.querySelector('input[name=cup][value="Knock-Out Cup"]'));
    // The draw's seed set for a reproducible walk (with some seeds a tie has no date in its
    // round's window, which the log reports for the Tournament Controller).
    const seed = Object.assign(document.createElement("input"), { type: "hidden", name: "seed", value: "4" });
    f.append(seed);
    f.querySelector("button").click();
  });
  const drawn = await publish(page, "cup-preview");
  if (!drawn.some((c) => c.includes("Knock-Out Cup") && c.includes("is added"))) throw new Error("the draw placed no tie: " + drawn);
  // A postponement to the best date from tomorrow: the first match to come that has one (a
  // match may have none left in its window, which the page says).
  let moved = null, postponed = null;
  for (const option of (await page.$$eval("#postpone-fixture option", (os) => os.map((o) => o.value))).slice(0, 10)) {
    await page.selectOption("#postpone-fixture", option);
    await page.click("#postpone-to ~ button");
    await page.waitForSelector("#publish, #season .error", { timeout: 120000 });
    if (await page.$("#publish")) { moved = option; postponed = await publish(page, "postpone-preview"); break; }
  }
  if (!postponed) throw new Error("no match to come could be postponed");
  const to = postponed.map((c) => c.match(/moves from .* to (.*)$/)).find((m) => m);
  if (!to || iso(new Date(to[1] + " UTC")) <= today) throw new Error(`${moved} postponed into the past: ${postponed}`);
  // A move agreed by the clubs: every date offered is after today, best first, with what it
  // costs in words; the first taken, previewed and published.
  for (const option of (await page.$$eval("#move-fixture option", (os) => os.map((o) => o.value))).slice(0, 10)) {
    await page.goto(hub);
    await page.selectOption("#move-fixture", option);
    await page.click("text=Show the dates it can move to");
    await page.waitForSelector("h1:has-text('Move ')");
    if (await page.$(".move-here")) break;
  }
  const offered = await page.$$eval(".move-here", (b) => b.map((x) => x.dataset.date));
  if (!offered.length || offered.some((d) => d <= today)) throw new Error(`moves offered: ${offered}`);
  await look(page, "moves");
  await page.click(".move-here");
  const movedTo = await publish(page, "move-preview");
  if (!movedTo.some((c) => c.includes(" moves from "))) throw new Error("the move moved nothing: " + movedTo);
  const league = async () => (await page.request.get(`${base}/api/leagues/${leagueId}`)).json();
  // An old draft published again over the season: the page names the changes it would make
  // and asks a second time (not clicked).
  await page.click("text=compare them and choose");
  await page.click(".choose[data-draft=\"1\"]");
  await page.waitForFunction(() => document.getElementById("chosen").textContent);
  if (!(await page.$("#publishAnyway"))) throw new Error("no second confirmation: " + (await page.textContent("#chosen")));
  if (!(await page.textContent("#undoes")).includes("not made from the published version")) throw new Error("the warning does not name the version in force");
  await look(page, "republish-warning");
  await page.goto(hub);
  // The season moves on: each time the Knock-Out Cup's ties are played, the server's clock
  // is set to the day after and every result is imported (league matches drawn 2-2, cup ties
  // won 3-1 at home), which places the next round; until the final has its result.
  async function results() {
    const st = await (await page.request.get(`${base}/api/leagues/${leagueId}/season`)).json();
    const lines = st.awaiting.map((a) => {
      const [h, aw] = a.fixture.split(" v ");
      return `${a.competition},${h},${aw},${a.date},${a.competition.startsWith("Division") ? "2-2" : "3-1"}`;
    });
    if (!lines.length) return 0;
    await page.goto(hub);
    // The first result through its own form, the rest imported together.
    const [one, ...rest] = lines;
    const first = st.awaiting[0];
    await page.selectOption("#result-fixture", `${first.fixture}\t${first.competition}`);
    await page.fill("#result-score", one.split(",").pop());
    await page.click("text=Record the result");
    await page.waitForSelector("#season, #publish");
    if (await page.$("#publish")) await publish(page, null);
    await noRefusal(page, "a result");
    if (!rest.length) return 1;
    await page.goto(hub);
    await page.fill("#results", rest.join("\n"));
    await page.click("text=Import the results");
    await page.waitForSelector("#season, #publish");
    if (await page.$("#publish")) await publish(page, seen.includes("cup-round-preview") ? null : "cup-round-preview");
    await noRefusal(page, "results");
    return lines.length;
  }
  let entered = 0, rounds = 0;
  for (;;) {
    const csv = await (await page.request.get(latest + "fixtures.csv")).text();
    const ties = csv.trim().split("\n").slice(1).map((l) => l.split(",")).filter((c) => c[1] === "Knock-Out Cup" && c[0] >= today);
    if (!ties.length) break;
    if (++rounds > 8) throw new Error("the Knock-Out Cup does not end");
    await start(addDays(ties.map((c) => c[0]).sort().pop(), 1));
    entered += await results();
  }
  const final = (await (await page.request.get(latest + "fixtures.csv")).text()).split("\n").find((l) => l.includes(",Knock-Out Cup,") && l.endsWith(",Final"));
  if (!final) throw new Error("the Knock-Out Cup has no final");
  // After the season's last match: every table level (all draws), a play-off between the
  // first two of Division 1.
  await start("2027-07-01");
  entered += await results();
  await page.goto(hub);
  await look(page, "tables");
  // A penalty for defaults through its form (rule 6.1: boards 1 and 2 cost 4 + 3 default
  // points, a match point at 6): the table shows it and names it; lifted, the table is level
  // again and the log keeps both steps.
  const penalised = await page.$eval("#penalty-team option", (o) => o.textContent);
  await page.check("#season input[name=board][value='1']");
  await page.check("#season input[name=board][value='2']");
  await page.fill("#penalty-why", "boards 1 and 2 defaulted, rule 6.1");
  await page.click("text=Record the penalty");
  await page.waitForSelector("#season");
  await noRefusal(page, "a penalty");
  const table = await page.textContent("#season");
  if (!table.includes("Points taken off") || !table.includes(`Penalty 1: ${penalised}, 7 default points`)) {
    throw new Error("the table does not show the penalty: " + table);
  }
  await look(page, "penalty");
  await page.click("text=Lift penalty 1");
  await page.fill("#lift-why-1", "appeal upheld");
  await page.click("button:text-is('Lift penalty 1')");
  await page.waitForSelector("#season");
  await noRefusal(page, "lifting a penalty");
  if ((await page.textContent("#season")).includes("Points taken off")) throw new Error("a lifted penalty still counts");
  await page.evaluate(() => {
    const f = [...document.querySelectorAll("#season form")].find((f) => f.querySelector("input[name=team]"));
    [...f.querySelectorAll("input[name=team]")].slice(2).forEach((b) => { b.checked = false; });
    f.querySelector("button").click();
  });
  const playOff = await publish(page, "playoff-preview");
  if (!playOff.some((c) => c.includes("is added"))) throw new Error("no play-off placed: " + playOff);
  await look(page, "hub-season");
  await page.locator("text=Tables").scrollIntoViewIfNeeded();
  await page.screenshot({ path: OUT + "/hub-tables.png" });
  // The clubs' links held: the latest list is the newest version, the calendar followed it,
  // and version 1's own page says it was replaced.
  const pubs = (await league()).publications;
  const last = pubs[pubs.length - 1].number;
  await page.goto(latest);
  await page.waitForSelector(`text=Version ${last} of the fixture list`);
  await look(page, "latest");
  // The clubs' pages under the same link: a division's grid and a club's fixture card.
  for (const [kind, name] of [["division-", "division"], ["club-", "club-card"]]) {
    await page.goto(latest);
    const href = await page.$eval(`a[href^="${kind}"]`, (a) => a.href);
    await page.goto(href);
    await look(page, name);
  }
  await page.goto(url1);
  await page.waitForSelector(`text=Version ${last} replaced it`);
  await look(page, "superseded");
  const calNow = await page.request.get(calUrl);
  if (calNow.status() !== 200 || (await calNow.text()) === cal1) throw new Error("the team's calendar did not follow the versions");
  // Every published version passes `fixtures check` against the league version it records.
  for (const p of pubs) {
    fs.writeFileSync(`${OUT}/v${p.number}.csv`, await (await page.request.get(base + p.url + "fixtures.csv")).text());
    fs.writeFileSync(`${OUT}/v${p.number}.toml`, await (await page.request.get(`${base}/api/leagues/${leagueId}/versions/${p.league_version}`)).text());
    execFileSync(BIN, ["check", `${OUT}/v${p.number}.toml`, `${OUT}/v${p.number}.csv`], { stdio: "ignore" });
  }
  const sussexEnd = today;
  // A 4NCL division (rule 6.3): uploaded as another league and solved, its preliminary pools
  // published; on the evening of round 7 every result is imported and the final pools are
  // previewed from the league's page, then published.
  await start("2026-11-01");
  const nclHub = await upload(page, NCL, "4NCL");
  await page.click("text=Solve it");
  await page.waitForFunction(() => document.getElementById("league").value.includes("4NCL"));
  await page.fill("#limit", "5");
  await page.click("#solve");
  await page.waitForSelector("#publish:not([hidden])", { timeout: 120000 });
  await page.click("#publish");
  await page.waitForFunction(() => document.getElementById("published").textContent.includes("Version 1"));
  const nclList = await (await page.request.get((await page.$eval("#published a", (a) => a.href)) + "fixtures.csv")).text();
  const prelim = nclList.trim().split("\n").slice(1).map((l) => l.split(","));
  if (prelim.length !== 56) throw new Error(`the 4NCL draw has ${prelim.length} fixtures, not 56`);
  // Before round 3 a team of preliminary pool A withdraws (rule 11.2): its seven matches go.
  const gone = "Manx Liberty";
  await start("2026-11-20");
  await page.goto(nclHub);
  await page.selectOption("#withdraw-team", gone);
  await page.click("#withdraw-team ~ button");
  const scratched = (await publish(page, "ncl-withdraw-preview")).filter((c) => c.includes(gone) && c.includes("is dropped"));
  if (scratched.length !== 7) throw new Error(`the withdrawal drops ${scratched.length} of its 7 matches`);
  // On the evening of round 7 the 49 results left are imported, home and away wins in turn.
  const left = prelim.filter((c) => c[2] !== gone && c[3] !== gone);
  await start("2027-03-13");
  await page.goto(nclHub);
  await page.fill("#results", left.map((c, i) => `${c[1]},${c[2]},${c[3]},${c[0]},${i % 2 ? "3-5" : "5-3"}`).join("\n"));
  await page.click("text=Import the results");
  await page.waitForSelector("#season");
  await noRefusal(page, "the 4NCL results");
  await page.waitForSelector('h3:text-is("Final pools of Division 1")');
  await page.click("text=See the final pools");
  // Four rounds of four in the championship pool, of three in the relegation pool of seven.
  const finals = await publish(page, "final-pools-preview");
  if (finals.filter((c) => c.includes("is added")).length !== 28) throw new Error("the final pools do not add 28 fixtures: " + finals.length);
  if (await page.$('h3:text-is("Final pools of Division 1")')) throw new Error("the final pools are offered again");
  await look(page, "final-pools");
  await page.goto(base + "/");
  await page.click("text=Log out");
  await page.waitForSelector("#password");
  await browser.close();
  console.log(`browser: the Sussex season walked to ${sussexEnd}: entries imported as a version, a limit added through its form, 2 drafts solved and draft 2's report opened, a committee member signed up from the invitation and compared, ${pubs.length} versions published (each passing fixtures check against its league version), ${entered} results entered (one per step through its form, the rest imported), the Knock-Out Cup played to its final in ${rounds} rounds, a withdrawal, a cup draw, a postponement, a move to an offered date and a play-off previewed and published, a penalty for defaulted boards recorded and lifted, an old draft's republication stopped with its changes; the clubs' link and calendar stayed the same; a 4NCL division's preliminary pools published, a team's withdrawal from them, and its final pools formed from their results; ${seen.length} pages checked with axe-core and at 390 px: ${seen.join(", ")}; screenshots in ${OUT}`);
  process.exit(0);
})().catch(async (e) => {
  console.error(e);
  // What each open page showed, for the failure.
  for (const [i, p] of pages.entries()) {
    if (p.isClosed()) continue;
    await p.screenshot({ path: `${OUT}/failure-${i}.png`, fullPage: true }).catch(() => {});
    console.error(`page ${i}: ${p.url()}: ${(await p.textContent("body").catch(() => "")).slice(0, 400)}`);
  }
  process.exit(1);
});
