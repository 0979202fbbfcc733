//! The pages and the OpenAPI document the service serves (no external resources): the login
//! page, the solver page (for a logged-in user), an invitation page.

use super::{caller, Shared};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};

/// Escapes text for HTML.
pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const STYLE: &str =
    "body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; max-width: 40em; }
label { display: block; margin: 0.6em 0 0.2em; }
input { font-size: 1em; padding: 0.3em; width: 100%; max-width: 20em; }
button { display: block; font-size: 1em; padding: 0.4em 1.2em; margin-top: 0.8em; }
.error { color: #b71c1c; }";

/// The editor's style: fields stacked, errors next to them, month calendars that wrap on a
/// phone.
const WIDE_STYLE: &str = "body { font-family: system-ui, sans-serif; margin: 1em; color: #222; max-width: 60em; }
label { display: block; margin: 0.6em 0 0.2em; }
label.inline { display: inline-block; margin: 0.2em 0.8em 0.2em 0; }
input, select, textarea { font-size: 1em; padding: 0.3em; width: 100%; max-width: 28em; box-sizing: border-box; }
input[type=checkbox] { width: auto; }
textarea { font-family: ui-monospace, monospace; }
button { display: block; font-size: 1em; padding: 0.5em 1.2em; margin-top: 0.8em; }
button.danger { color: #b71c1c; }
nav a { margin-right: 1em; }
nav.parts { display: flex; flex-wrap: wrap; gap: 0.3em 1em; }
nav.parts a { margin: 0; white-space: nowrap; }
summary { cursor: pointer; color: #0b57d0; }
.row { display: flex; gap: 1em; flex-wrap: wrap; align-items: center; }
.muted, .help { color: #666; font-size: 0.9em; }
.field { margin-bottom: 0.8em; }
.has-error input, .has-error select, .has-error textarea { border: 2px solid #b71c1c; }
.error, .field-error { color: #b71c1c; }
.field-error p { margin: 0.2em 0; }
.todo { background: #fff8e1; padding: 0.2em 1em; }
fieldset { border: 1px solid #ccc; margin: 0.6em 0; min-width: 0; }
fieldset.division { border: none; margin: 0.2em 0; padding: 0; }
fieldset.division legend { font-size: 0.9em; color: #555; padding: 0; }
button.tick-all { display: block; margin: 0.2em 0 0.4em; font-size: 0.85em; }
a { overflow-wrap: anywhere; }
.scroll { overflow-x: auto; max-width: 100%; }
#season table { border-collapse: collapse; margin: 0.4em 0 1em; }
#season caption { font-weight: 600; text-align: left; }
#season td, #season th { padding: 0.2em 0.5em; border-bottom: 1px solid #ddd; text-align: left; }
#changes li { margin: 0.2em 0; }
@media (max-width: 600px) {
  #moves thead { display: none; }
  #moves tr { display: block; border-bottom: 1px solid #ccc; padding: 0.4em 0; }
  #moves td { display: block; border: 0; padding: 0.1em 0; }
}
.months { display: flex; flex-wrap: wrap; gap: 0.8em; }
table.month { border-collapse: collapse; font-size: 0.85em; }
table.month caption { font-weight: 600; text-align: left; }
table.month td, table.month th { text-align: center; padding: 0; width: 2.2em; }
table.month label { display: block; margin: 0; padding: 0.15em 0; cursor: pointer; }
table.month input { display: block; margin: 0 auto; width: 1.1em; height: 1.1em; }
table.month input:checked + span { font-weight: 700; color: #b71c1c; }
.count.over { color: #b71c1c; font-weight: 700; }
ul.items { columns: 14em; }";

/// A page with the editor's style.
pub(crate) fn small_page_wide(title: &str, body: &str) -> String {
    page_with(WIDE_STYLE, title, body)
}

/// The skip link: off screen until a keyboard reaches it, first on every page.
const SKIP_STYLE: &str = ".skip{position:absolute;left:-9999px}.skip:focus{left:1em;top:1em;background:#fff;color:#0b57d0;padding:.5em;z-index:9}";

/// A whole page: no resources from the network, sized for a phone, with a skip link and its
/// content in a `main` landmark.
fn page_with(style: &str, title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{style}{SKIP_STYLE}</style>\n</head>\n<body>\n<a class=\"skip\" href=\"#content\">Skip to the content</a>\n<main id=\"content\">\n{body}\n</main>\n</body>\n</html>\n",
        esc(title)
    )
}

fn small_page(title: &str, body: &str) -> String {
    page_with(STYLE, title, body)
}

/// The login page, with a message when a login failed.
pub(crate) fn login_page(message: Option<&str>, signup: bool, next: Option<&str>) -> Html<String> {
    let message = message.map_or(String::new(), |m| {
        format!("<p class=\"error\" role=\"alert\">{}</p>", esc(m))
    });
    Html(small_page(
        "fixtures — log in",
        &format!(
            "<h1>fixtures</h1>\n<p>Log in to build and solve your league's fixtures.</p>\n{message}\n<form method=\"post\" action=\"/login\">{}\n<label for=\"name\">Name</label>\n<input id=\"name\" name=\"name\" autocomplete=\"username\" required>\n<label for=\"password\">Password</label>\n<input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"current-password\" required>\n<button type=\"submit\">Log in</button>\n</form>{}",
            hidden_next(next),
            if signup {
                format!(
                    "\n<p><a href=\"/signup{}\">Create an account</a></p>",
                    next.map_or(String::new(), |n| format!("?next={}", esc(n)))
                )
            } else {
                String::new()
            }
        ),
    ))
}

/// The form to create an account, with a message when one was refused.
pub(crate) fn signup_page(message: Option<&str>, name: &str, next: Option<&str>) -> Html<String> {
    let message = message.map_or(String::new(), |m| {
        format!("<p class=\"error\" role=\"alert\">{}</p>", esc(m))
    });
    Html(small_page(
        "fixtures — create an account",
        &format!(
            "<h1>Create an account</h1>\n<p>One account per secretary: your leagues are yours alone, and you invite your committee to read them.</p>\n{message}\n<form method=\"post\" action=\"/signup\">{}\n<label for=\"name\">Name</label>\n<input id=\"name\" name=\"name\" value=\"{}\" autocomplete=\"username\" required maxlength=\"40\">\n<label for=\"password\">Password (at least 10 characters)</label>\n<input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"new-password\" required minlength=\"10\">\n<label for=\"again\">Password again</label>\n<input id=\"again\" name=\"again\" type=\"password\" autocomplete=\"new-password\" required>\n<button type=\"submit\">Create the account</button>\n</form>\n<p><a href=\"/\">Log in instead</a></p>",
            hidden_next(next),
            esc(name)
        ),
    ))
}

/// The hidden field that brings a login or sign-up back to where it started.
fn hidden_next(next: Option<&str>) -> String {
    next.map_or(String::new(), |n| {
        format!(
            "\n<input type=\"hidden\" name=\"next\" value=\"{}\">",
            esc(n)
        )
    })
}

/// `GET /`: the solver page for a logged-in user (its forms carry the CSRF token), else the
/// login page.
pub(crate) async fn home(State(app): State<Shared>, headers: HeaderMap) -> Response {
    match caller(&app, &headers).await {
        Ok(Some(c)) => {
            let csrf = c.csrf.unwrap_or_default();
            Html(
                PAGE.replace("{{csrf}}", &esc(&csrf))
                    .replace("{{user}}", &esc(&c.user.name))
                    .replace("{{today}}", &app.cfg.today().to_string()),
            )
            .into_response()
        }
        Ok(None) => login_page(None, app.cfg.signup, None).into_response(),
        Err(e) => super::ApiError::Store(e).into_response(),
    }
}

/// `GET /invite/{token}`: a form to join the league's committee (log in first).
pub(crate) async fn invitation(
    State(app): State<Shared>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Response {
    match caller(&app, &headers).await {
        Ok(Some(c)) => Html(small_page(
            "fixtures — invitation",
            &format!(
                "<h1>Join a league's committee</h1>\n<p>You are logged in as {}. Joining lets you read the league's drafts and compare them.</p>\n<form method=\"post\" action=\"/invite/{}\">\n<input type=\"hidden\" name=\"csrf\" value=\"{}\">\n<button type=\"submit\">Join the committee</button>\n</form>",
                esc(&c.user.name),
                esc(&token),
                esc(&c.csrf.unwrap_or_default())
            ),
        ))
        .into_response(),
        Ok(None) => {
            let link = format!("/invite/{token}");
            let page = login_page(
                Some("Log in, or create an account, to join the league's committee: you come back to this invitation after."),
                app.cfg.signup,
                super::auth::next_of(Some(&link)),
            );
            (StatusCode::UNAUTHORIZED, page).into_response()
        }
        Err(e) => super::ApiError::Store(e).into_response(),
    }
}

/// `GET /api/openapi.json`.
pub(crate) async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI).into_response()
}

/// The solver page: paste or upload a league file, solve, watch progress, see and download the
/// result. `{{csrf}}` and `{{user}}` are filled in per session, `{{today}}` with the service's today.
pub const PAGE: &str = r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrf" content="{{csrf}}">
<meta name="today" content="{{today}}">
<title>fixtures — league scheduler</title>
<style>
[hidden] { display: none !important; }
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; max-width: 1200px; }
h1 { font-weight: 600; margin-bottom: 0.2em; }
textarea { width: 100%; height: 18em; font-family: ui-monospace, monospace; font-size: 0.85em; }
button { font-size: 1em; padding: 0.4em 1.2em; }
.row { display: flex; gap: 1em; align-items: center; margin: 0.6em 0; flex-wrap: wrap; }
#errors { color: #b71c1c; white-space: pre-wrap; font-family: ui-monospace, monospace; font-size: 0.85em; }
progress { width: 24em; height: 1.2em; }
#diff td, #diff th, #moves td, #moves th { padding: 0.2em 0.6em; text-align: left; border-bottom: 1px solid #ddd; font-size: 0.9em; }
#figures td, #figures th { padding: 0.2em 0.8em; text-align: left; border-bottom: 1px solid #ddd; }
iframe { width: 100%; height: 70vh; border: 1px solid #ccc; margin-top: 1em; }
.muted { color: #666; }
fieldset { border: 1px solid #ccc; margin: 0.8em 0; min-width: 0; }
.row > * { max-width: 100%; }
#diff, #moves, #figures { display: block; overflow-x: auto; max-width: 100%; }
progress { max-width: 100%; }
#published, #inviteLink, #compareLink { overflow-wrap: anywhere; }
@media (max-width: 500px) { body { margin: 0.6em; } }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 1em; top: 1em; background: #fff; padding: 0.5em; z-index: 9; }
</style>
</head>
<body>
<a class="skip" href="#content">Skip to the content</a>
<form method="post" action="/logout" class="row" style="justify-content: flex-end">
  <span class="muted">Logged in as {{user}}</span>
  <input type="hidden" name="csrf" value="{{csrf}}">
  <button type="submit">Log out</button>
</form>
<main id="content">
<h1>fixtures</h1>
<p><a href="/leagues">Your leagues: build one with forms, no TOML needed</a></p>
<p class="muted">Paste or upload a league file (TOML), or open one of your leagues, set a time limit, and solve. The fixture list,
a published report with division grids and team calendars, and phone calendars are ready when it ends.</p>
<div class="row">
  <label for="file">League file</label>
  <input type="file" id="file" accept=".toml,text/plain">
  <label>Time limit <input type="number" id="limit" value="30" min="1" max="600" style="width:5em"> s</label>
  <label>Drafts <input type="number" id="drafts" value="1" min="1" max="5" style="width:3em"></label>
  <button id="solve">Solve</button>
  <span id="state" class="muted"></span>
</div>
<fieldset>
  <legend>Team entries from a spreadsheet</legend>
  <p class="muted">Fill the template (one row per team: club, division, venue, nights, unavailable
  dates in one cell as DD/MM/YYYY, ranges as "19/12/2026 to 03/01/2027"), then import it: the
  league file below keeps its season, divisions and rules and takes the sheet's teams, clubs and
  venues. Nothing changes unless every cell reads.</p>
  <div class="row">
    <a href="/api/template.xlsx" download="entries.xlsx">Download the entry template (XLSX)</a>
    <label for="entries">Entries (XLSX, ODS or CSV)</label>
    <input type="file" id="entries" accept=".xlsx,.xls,.ods,.csv">
    <button id="import" type="button">Import into the league file</button>
    <span id="imported" class="muted"></span>
  </div>
</fieldset>
<label for="league">The league file (TOML)</label>
<textarea id="league" spellcheck="false" placeholder="name = &quot;My League 2026-7&quot;&#10;start = 2026-10-12&#10;end = 2027-05-14&#10;..."></textarea>
<div id="errors"></div>
<div class="row" id="progressRow" hidden>
  <progress id="bar" max="1" value="0"></progress>
  <span id="progressText"></span>
</div>
<table id="figures" tabindex="0" hidden></table>
<div class="row" id="links" hidden></div>
<fieldset id="publishing" hidden>
  <legend>Publish and the season's changes</legend>
  <div class="row">
    <label for="draftChoice" id="draftLabel" hidden>Draft</label>
    <select id="draftChoice" hidden></select>
    <button id="publish" type="button">Publish this list</button>
    <span id="published" class="muted"></span>
  </div>
  <fieldset id="agreedPanel">
    <legend>Clubs' agreed changes before publication (rule 2.6)</legend>
    <p class="muted">Enter each change two clubs agreed to this draft; one rerun then moves as few
    other fixtures as it can, and the changes stay in the league file as fixed fixtures.</p>
    <div class="row">
      <label for="agreedFixture">Fixture</label>
      <select id="agreedFixture"></select>
      <label for="agreedDate">New date</label>
      <input type="date" id="agreedDate">
      <button id="addAgreed" type="button">Add the change</button>
    </div>
    <ul id="agreedList"></ul>
    <button id="rerunAgreed" type="button" hidden>Rerun with these changes</button>
  </fieldset>
  <div class="row">
    <button id="invite" type="button">Invite a committee member</button>
    <span id="invitation" class="muted"></span>
  </div>
  <div id="movePanel" hidden>
    <div class="row">
      <label for="moveFixture">Fixture to move</label>
      <select id="moveFixture"></select>
      <label for="agreed">Agreed on</label>
      <input type="date" id="agreed">
      <button id="showMoves" type="button">Show dates</button>
    </div>
    <table id="moves" tabindex="0"></table>
    <div id="moved" class="muted"></div>
    <div class="row">
      <label for="changeTeam">Team</label>
      <select id="changeTeam"></select>
      <label for="changeKind">Change</label>
      <select id="changeKind"><option value="postpone">cannot play on (postpone)</option><option value="withdraw">withdraws (rule 11.2: its results are struck out, played ones too, and its fixtures cancelled)</option></select>
      <label for="changeDate" id="changeDateLabel">Date</label>
      <input type="date" id="changeDate">
      <button id="preview" type="button">Preview the rerun</button>
    </div>
  </div>
  <table id="diff" tabindex="0"></table>
  <button id="confirm" type="button" hidden>Confirm and publish</button>
</fieldset>
<iframe id="report" title="report" hidden></iframe>
</main>
<script src="/assets/home.js"></script>
</body>
</html>
"##;

/// The API, described for clients (OpenAPI 3.0).
pub const OPENAPI: &str = r##"{
  "openapi": "3.0.3",
  "info": { "title": "fixtures", "version": "2", "description": "Fixture scheduling for amateur team leagues. Log in with POST /api/login for an API token and send it as 'Authorization: Bearer TOKEN'. A browser session (cookie) must also send its CSRF token as X-CSRF-Token on every POST and DELETE. Anything not yours answers 404, as what does not exist." },
  "components": {
    "securitySchemes": { "token": { "type": "http", "scheme": "bearer" }, "session": { "type": "apiKey", "in": "cookie", "name": "fixtures_session" } },
    "parameters": {
      "id": { "name": "id", "in": "path", "required": true, "schema": { "type": "string", "pattern": "^[0-9a-f]{32}$" } },
      "file": { "name": "file", "in": "path", "required": true, "schema": { "type": "string" } }
    },
    "schemas": {
      "Status": { "type": "object", "properties": {
        "id": { "type": "string" }, "state": { "type": "string", "enum": ["queued", "running", "done", "infeasible", "timed-out", "failed", "cancelled"] },
        "league": { "type": "string" }, "league_id": { "type": "string" }, "time_limit": { "type": "number" }, "submitted": { "type": "integer" }, "elapsed": { "type": "number" },
        "incumbent": { "type": "number", "nullable": true }, "bound": { "type": "number", "nullable": true }, "gap": { "type": "number", "nullable": true },
        "status": { "type": "string", "nullable": true, "enum": ["optimal", "optimal-within", "feasible"] },
        "fixtures": { "type": "integer", "nullable": true }, "breaks": { "type": "integer", "nullable": true }, "valid": { "type": "boolean", "nullable": true },
        "messages": { "type": "array", "items": { "type": "string" } },
        "moves": { "type": "integer", "nullable": true }, "drafts": { "type": "integer", "nullable": true }, "attempts": { "type": "integer" } } },
      "Job": { "type": "object", "properties": {
        "league": { "type": "string", "description": "the league file (TOML); a league of yours with its name gets a new version when it changed" },
        "league_id": { "type": "string", "description": "or one of your leagues (its latest version)" },
        "time_limit": { "type": "number", "maximum": 600 }, "seed": { "type": "integer" },
        "alternatives": { "type": "integer", "minimum": 1, "maximum": 5 },
        "current": { "type": "string", "description": "reschedule: the fixture list in force (CSV)" },
        "rerun_of": { "type": "string", "description": "reschedule: a publication of the league, whose list is the current one" },
        "unavailable": { "type": "array", "items": { "type": "string" }, "description": "reschedule: a postponement, as TEAM=YYYY-MM-DD dates teams cannot play" },
        "from": { "type": "string", "format": "date", "description": "reschedule: the first date that may change" },
        "withdraw": { "type": "array", "items": { "type": "string" } } } },
      "Error": { "type": "object", "properties": { "error": { "type": "string" }, "messages": { "type": "array", "items": { "type": "string" } } } }
    }
  },
  "security": [ { "token": [] }, { "session": [] } ],
  "paths": {
    "/api/login": { "post": { "summary": "An API token for a name and password (rate-limited per 15 minutes: 5 failures per account and address, 20 per address, 100 per account)", "security": [],
      "requestBody": { "required": true, "content": { "application/json": { "schema": { "type": "object", "required": ["name", "password"], "properties": { "name": { "type": "string" }, "password": { "type": "string" } } } } } },
      "responses": { "200": { "description": "{\"token\": ...}" }, "401": { "description": "Wrong name or password" }, "429": { "description": "Too many failed logins" } } } },
    "/api/jobs": { "post": { "summary": "Submit a league file (the body) or a JSON job: always a new job",
      "parameters": [
        { "name": "time_limit", "in": "query", "schema": { "type": "number", "default": 30, "maximum": 600 } },
        { "name": "seed", "in": "query", "schema": { "type": "integer", "default": 0 } },
        { "name": "alternatives", "in": "query", "schema": { "type": "integer", "minimum": 1, "maximum": 5 } } ],
      "requestBody": { "required": true, "content": { "application/toml": { "schema": { "type": "string" } }, "text/plain": { "schema": { "type": "string" } }, "application/json": { "schema": { "$ref": "#/components/schemas/Job" } } } },
      "responses": { "202": { "description": "Accepted: the job's status", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Status" } } } },
        "400": { "description": "Invalid league file (messages with file, line and key) or options", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
        "401": { "description": "Not logged in" }, "403": { "description": "A session without its CSRF token" }, "413": { "description": "Body larger than 4 MiB" },
        "429": { "description": "The queue, or your share of it, is full; see Retry-After", "headers": { "Retry-After": { "schema": { "type": "integer" } } } } } } },
    "/api/jobs/{id}": { "parameters": [ { "$ref": "#/components/parameters/id" } ],
      "get": { "summary": "A job's state, progress and figures (owner or committee)", "responses": { "200": { "description": "Status", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Status" } } } }, "404": { "description": "No such job, or not yours" } } },
      "delete": { "summary": "Cancel a queued or running job (nothing of it is kept); delete a finished one (owner)", "responses": { "200": { "description": "Cancelled" }, "204": { "description": "Deleted" }, "404": { "description": "No such job, or not yours" } } } },
    "/api/jobs/{id}/fixtures.csv": { "parameters": [ { "$ref": "#/components/parameters/id" } ], "get": { "summary": "The fixture list (checked)", "responses": { "200": { "description": "CSV", "content": { "text/csv": {} } }, "404": { "description": "Not finished, or no such job" } } } },
    "/api/jobs/{id}/files/{file}": { "parameters": [ { "$ref": "#/components/parameters/id" }, { "$ref": "#/components/parameters/file" } ], "get": { "summary": "draft-N.csv (alternatives), fixtures.diff.csv and changes.txt (reschedule)", "responses": { "200": { "description": "The file" }, "404": { "description": "No such file" } } } },
    "/api/jobs/{id}/report/{file}": { "parameters": [ { "$ref": "#/components/parameters/id" }, { "$ref": "#/components/parameters/file" } ], "get": { "summary": "The report's pages (index.html, division-*.html, club-*.html)", "responses": { "200": { "description": "HTML" } } } },
    "/api/jobs/{id}/ics/{file}": { "parameters": [ { "$ref": "#/components/parameters/id" }, { "$ref": "#/components/parameters/file" } ], "get": { "summary": "A team's calendar (TEAM.ics)", "responses": { "200": { "description": "iCalendar", "content": { "text/calendar": {} } } } } },
    "/api/jobs/{id}/publish": { "parameters": [ { "$ref": "#/components/parameters/id" } ], "post": { "summary": "Publish the job's list, or {\"draft\": N}, as the league's next version (owner); earlier versions stay", "responses": { "201": { "description": "{id, number, url}: public at /p/{id}/" }, "404": { "description": "No such job, or not yours" } } } },
    "/api/leagues": { "get": { "summary": "Your leagues (owned or joined)", "responses": { "200": { "description": "id, name, versions" } } }, "post": { "summary": "A new league from its file (the body)", "responses": { "201": { "description": "{id, name, versions}" }, "400": { "description": "Invalid league file" } } } },
    "/api/leagues/{id}": { "parameters": [ { "$ref": "#/components/parameters/id" } ], "delete": { "summary": "Delete the league with its versions, jobs, drafts, publications (their public pages too), members and invitations (owner)", "responses": { "204": { "description": "Deleted" } } }, "get": { "summary": "The league, your access (owner or committee), its jobs and publications", "responses": { "200": { "description": "League" }, "404": { "description": "No such league, or not yours" } } } },
    "/api/leagues/{id}/versions": { "parameters": [ { "$ref": "#/components/parameters/id" } ], "post": { "summary": "A new version of the league file (owner; the body)", "responses": { "201": { "description": "League" } } } },
    "/api/leagues/{id}/season": { "parameters": [ { "$ref": "#/components/parameters/id" } ], "get": { "summary": "Where the season stands (owner or committee): today, matches awaiting a result, the log, the penalties", "responses": { "200": { "description": "{today, published, versions, awaiting, log, penalties}" } } }, "post": { "summary": "One operation on the season (owner): {\"action\": \"result\" | \"results\" | \"postpone\" | \"move\" | \"withdraw\" | \"cup\" | \"play_off\" | \"replay\" | \"final_pools\" | \"swiss_round\" | \"penalty\" | \"lift_penalty\", ...}; publishes the next version when it makes one", "responses": { "200": { "description": "{entry, publication}" }, "400": { "description": "Bad input" }, "409": { "description": "Nothing published yet, or the season changed meanwhile" }, "422": { "description": "Refused by the league's rules" } } } },
    "/api/leagues/{id}/versions/{n}": { "parameters": [ { "$ref": "#/components/parameters/id" }, { "name": "n", "in": "path", "required": true, "schema": { "type": "integer" } } ], "delete": { "summary": "Delete a version no publication uses, with its jobs (owner)", "responses": { "204": { "description": "Deleted" }, "409": { "description": "A publication uses it" } } }, "get": { "summary": "Version n of the league file", "responses": { "200": { "description": "TOML" } } } },
    "/api/leagues/{id}/invitations": { "parameters": [ { "$ref": "#/components/parameters/id" } ], "get": { "summary": "The invitations (id, created, expires, used; never the token) and the committee members (owner)", "responses": { "200": { "description": "{invitations, members}" } } }, "post": { "summary": "A committee invitation link (owner): one use, for 14 days", "responses": { "201": { "description": "{token, link, expires}" } } } },
    "/api/leagues/{id}/invitations/{inv}": { "parameters": [ { "$ref": "#/components/parameters/id" }, { "name": "inv", "in": "path", "required": true, "schema": { "type": "string" } } ], "delete": { "summary": "Withdraw an invitation (owner): its link stops working", "responses": { "204": { "description": "Withdrawn" }, "404": { "description": "No such invitation" } } } },
    "/api/leagues/{id}/members/{user}": { "parameters": [ { "$ref": "#/components/parameters/id" }, { "name": "user", "in": "path", "required": true, "schema": { "type": "string" } } ], "delete": { "summary": "Remove a committee member (owner)", "responses": { "204": { "description": "Removed" }, "404": { "description": "Not a member" } } } },
    "/api/leagues/{id}/publications/{p}": { "parameters": [ { "$ref": "#/components/parameters/id" }, { "name": "p", "in": "path", "required": true, "schema": { "type": "string" } } ], "delete": { "summary": "Delete a published version and its public pages (owner)", "responses": { "204": { "description": "Deleted" }, "404": { "description": "No such publication" } } } },
    "/api/tokens": { "get": { "summary": "Your API tokens: id, created, expires (90 days after a login); never the tokens", "responses": { "200": { "description": "{tokens}" } } } },
    "/api/tokens/{id}": { "parameters": [ { "name": "id", "in": "path", "required": true, "schema": { "type": "string" } } ], "delete": { "summary": "Revoke one of your API tokens", "responses": { "204": { "description": "Revoked" }, "404": { "description": "No such token of yours" } } } },
    "/api/account": { "delete": { "summary": "Delete your account with everything it owns (leagues, publications, jobs, tokens)", "responses": { "204": { "description": "Deleted" } } } },
    "/api/invitations/{token}": { "parameters": [ { "name": "token", "in": "path", "required": true, "schema": { "type": "string" } } ], "post": { "summary": "Join the invitation's league as a committee member (read and compare drafts)", "responses": { "200": { "description": "{league}" }, "404": { "description": "No such invitation" } } } },
    "/p/{id}/": { "parameters": [ { "$ref": "#/components/parameters/id" } ], "get": { "summary": "A published list's report, public (pages beside it, calendars under ics/, fixtures.csv, changes.csv)", "security": [], "responses": { "200": { "description": "HTML" }, "404": { "description": "No such publication" } } } },
    "/api/publications/{id}/moves": { "parameters": [ { "$ref": "#/components/parameters/id" } ], "get": { "summary": "Every date the published fixture ?fixture=HOME v AWAY could move to, best first, with its costs in words and rule 2.6's verdict for an agreement on ?agreed=DATE (owner or committee)", "responses": { "200": { "description": "{fixture, date, moves}" }, "404": { "description": "No such publication, or not yours" } } } },
    "/api/publications/{id}/move": { "parameters": [ { "$ref": "#/components/parameters/id" } ], "post": { "summary": "Move {fixture, date, agreed?, exceptional?}: published as the league's next version with the fixture [[fixed]] (owner, CSRF)", "responses": { "201": { "description": "{id, number, url, window}" }, "409": { "description": "Outside rule 2.6's windows: only with exceptional" }, "422": { "description": "Invalid under rule 2.6, or the date breaks a rule of the league (messages)" }, "404": { "description": "No such publication, or not yours" } } } },
    "/api/import": { "post": { "summary": "The league file {league} with the team-entry workbook {name, data (base64)}: its teams, clubs and venues (logged in, CSRF)", "responses": { "200": { "description": "{league}: the new league file" }, "422": { "description": "{messages, cells}: every bad cell by sheet, row and column; nothing changed" } } } },
    "/api/template.xlsx": { "get": { "summary": "The empty team-entry workbook (Teams, Clubs, Venues)", "security": [], "responses": { "200": { "description": "XLSX" } } } },
    "/api/check": { "post": { "summary": "Check a fixture list against a league file (stores nothing)", "security": [],
      "requestBody": { "required": true, "content": { "application/json": { "schema": { "type": "object", "required": ["league", "fixtures"], "properties": { "league": { "type": "string" }, "fixtures": { "type": "string" } } } } } },
      "responses": { "200": { "description": "valid, violations, breaks, objective, quality" }, "400": { "description": "Invalid league file or unreadable list" } } } }
  }
}
"##;
