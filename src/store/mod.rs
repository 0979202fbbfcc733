//! The service's data layer: accounts, leagues and their versions, jobs and their files,
//! published fixture lists. One set of queries over SQLite (embedded, one file, WAL, foreign
//! keys on) or PostgreSQL (many machines), through sqlx's `Any` driver; the schema is versioned
//! in `migrations/` and applied at start. Every query of the service is in this module.
//!
//! Ids are random 128-bit hex strings; secrets (session and API tokens, invitation tokens) are
//! random 256-bit strings of which only a SHA-256 hash is stored; passwords are argon2 hashes.

mod ids;

pub use ids::{hash_token, is_id, new_id, new_token};

use serde::{Deserialize, Serialize};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};
use std::time::{SystemTime, UNIX_EPOCH};

/// The migrations, in order: (version, SQL). Applied once each, at start.
const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../../migrations/0001_init.sql")),
    (2, include_str!("../../migrations/0002_hardening.sql")),
    (3, include_str!("../../migrations/0003_seasons.sql")),
];

/// A name as uniqueness and login limits compare it: Unicode NFKC, case-folded, trimmed (so
/// `ownera`, `OWNERA` and `ownerA` with a Cyrillic А are told apart from `ownerA` or not, as a
/// reader would).
pub fn name_key(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    name.trim().nfkc().collect::<String>().to_lowercase()
}

/// A session's CSRF token: derived from the session token (which only the browser holds), so
/// the database holds no CSRF token.
fn csrf_of(session_token: &str) -> String {
    hash_token(&format!("csrf:{session_token}"))[..32].to_string()
}

/// Days an API token lasts (a login makes a new one; `revoke_api_token` ends one sooner).
pub const API_TOKEN_DAYS: i64 = 90;

/// An invitation to a league's committee, as its secretary sees it.
#[derive(Debug, Clone, Serialize)]
pub struct Invitation {
    /// Its id (for withdrawing it; not the link's token).
    pub id: String,
    /// When it was made (Unix seconds).
    pub created: i64,
    /// Until when it can be accepted (Unix seconds).
    pub expires: i64,
    /// Whether someone has accepted it.
    pub used: bool,
}

/// A job refused by a queue cap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Full {
    /// The account has this many jobs queued or running already.
    Account(i64),
    /// The queue holds this many jobs already.
    Queue(i64),
}

/// The caps a new job must fit under.
#[derive(Debug, Clone, Copy)]
pub struct Caps {
    /// Jobs one account may have queued or running.
    pub per_account: i64,
    /// Jobs queued in all.
    pub queue: i64,
}

/// A data-layer failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed a query.
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    /// A database URL that names no supported database.
    #[error("unsupported database URL \"{0}\" (use sqlite://FILE or postgres://...)")]
    Url(String),
    /// A migration failed.
    #[error("migration {version}: {error}")]
    Migration {
        /// The migration's version.
        version: i64,
        /// What failed.
        error: String,
    },
    /// Hashing a password failed.
    #[error("password hashing: {0}")]
    Hash(String),
    /// A row holds what this version cannot read.
    #[error("unreadable row: {0}")]
    Unreadable(String),
}

/// Where a job stands. Stored as its word (`as_str`), shown in the API the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JobState {
    /// Waiting for a worker.
    Queued,
    /// A worker holds it.
    Running,
    /// Solved: its checked list is stored.
    Done,
    /// The league has no valid list.
    Infeasible,
    /// No list within its time limit.
    TimedOut,
    /// The solve failed; its messages say why.
    Failed,
    /// Cancelled by its owner.
    Cancelled,
}

impl JobState {
    const ALL: [JobState; 7] = [
        JobState::Queued,
        JobState::Running,
        JobState::Done,
        JobState::Infeasible,
        JobState::TimedOut,
        JobState::Failed,
        JobState::Cancelled,
    ];

    /// Its word, as stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Done => "done",
            JobState::Infeasible => "infeasible",
            JobState::TimedOut => "timed-out",
            JobState::Failed => "failed",
            JobState::Cancelled => "cancelled",
        }
    }

    /// Whether it may still change (queued or running).
    pub fn is_open(self) -> bool {
        matches!(self, JobState::Queued | JobState::Running)
    }

    /// The state a failed solve leaves its job in.
    pub fn of_failure(f: &crate::pipeline::Failure) -> JobState {
        use crate::pipeline::Failure;
        match f {
            Failure::Infeasible { .. } => JobState::Infeasible,
            Failure::TimedOut { .. } => JobState::TimedOut,
            Failure::Cancelled => JobState::Cancelled,
            _ => JobState::Failed,
        }
    }

    fn parse(word: &str) -> Result<JobState> {
        JobState::ALL
            .into_iter()
            .find(|s| s.as_str() == word)
            .ok_or_else(|| StoreError::Unreadable(format!("job state \"{word}\"")))
    }
}

impl std::fmt::Display for JobState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

type Result<T> = std::result::Result<T, StoreError>;

/// Now, in Unix seconds.
pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// An account.
#[derive(Debug, Clone, PartialEq)]
pub struct User {
    /// Its id.
    pub id: String,
    /// Its login name.
    pub name: String,
}

/// How a user may reach a league.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// The secretary who created it: may change everything.
    Owner,
    /// An invited committee member: may read the league, its jobs and drafts.
    Committee,
}

/// A league version that a publication uses, which cannot be deleted before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("version {version} is the league file of published version {publication}: delete that publication first")]
pub struct Published {
    /// The league version.
    pub version: i64,
    /// The publication's number.
    pub publication: i64,
}

/// A league and its latest version number.
#[derive(Debug, Clone, Serialize, sqlx::FromRow)]
pub struct League {
    /// Its id.
    pub id: String,
    /// Its name (from the latest league file).
    pub name: String,
    /// Its owner's user id.
    #[serde(skip)]
    pub owner: String,
    /// The latest version's number.
    pub versions: i64,
}

/// One version of a league file.
#[derive(Debug, Clone)]
pub struct Version {
    /// Its id.
    pub id: String,
    /// Its league.
    pub league: String,
    /// 1, 2, ...
    pub number: i64,
    /// The league file.
    pub toml: String,
}

/// A job as stored.
#[derive(Debug, Clone)]
pub struct Job {
    /// Its id.
    pub id: String,
    /// Who submitted it.
    pub owner: String,
    /// Its league.
    pub league: String,
    /// The league version it solves.
    pub version: String,
    /// What it asks for besides the league (JSON).
    pub spec: String,
    /// Seconds the solve may take.
    pub time_limit: f64,
    /// Where it stands.
    pub state: JobState,
    /// When it was submitted.
    pub submitted: i64,
    /// When a worker last started it.
    pub started: Option<i64>,
    /// When it ended.
    pub finished: Option<i64>,
    /// Times a worker claimed it.
    pub attempts: i64,
    /// Times a result was stored (never more than one).
    pub completions: i64,
    /// Figures and messages so far (JSON of `Figures`).
    pub figures: Figures,
}

/// A job's figures and messages, as the API shows them.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Figures {
    /// The best objective so far.
    pub incumbent: Option<f64>,
    /// The best proven bound so far.
    pub bound: Option<f64>,
    /// The proven relative gap, when done.
    pub gap: Option<f64>,
    /// Fixtures in the result.
    pub fixtures: Option<usize>,
    /// Breaks in the result.
    pub breaks: Option<usize>,
    /// Whether the checker accepted the result (always, for a stored result).
    pub valid: Option<bool>,
    /// Why the job failed or has no schedule, in the CLI's words.
    #[serde(default)]
    pub messages: Vec<String>,
    /// A rerun: fixtures moved.
    pub moves: Option<usize>,
    /// Drafts stored (`draft-N.csv`).
    pub drafts: Option<usize>,
    /// The solver's status word (optimal, optimal-within, feasible).
    pub status: Option<String>,
    /// The solve's peak resident memory in MiB (its own process's).
    #[serde(default)]
    pub peak_mib: Option<u64>,
}

/// A job a worker has claimed: its id and the attempt that fences its writes.
#[derive(Debug, Clone)]
pub struct Claim {
    /// The job.
    pub job: Job,
    /// The attempt number; only this attempt may store the result.
    pub attempt: i64,
}

/// A published fixture list: public, read-only, at an unguessable id.
#[derive(Debug, Clone, Serialize, sqlx::FromRow)]
pub struct Publication {
    /// Its public id.
    pub id: String,
    /// Its league.
    #[serde(skip)]
    pub league: String,
    /// 1, 2, ... per league.
    pub number: i64,
    /// The league version it was solved for.
    #[serde(skip)]
    pub version: String,
    /// The fixture list (CSV, checked).
    #[serde(skip)]
    pub csv: String,
    /// The change from the version before (CSV diff), for a rerun.
    #[serde(skip)]
    pub diff: Option<String>,
    /// When it was published.
    pub created: i64,
}

/// The data layer: a pool on SQLite or PostgreSQL.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    postgres: bool,
    /// Submissions of this process, one at a time: the caps' counts and the insert are one
    /// step (on PostgreSQL an advisory lock does the same across processes).
    submitting: std::sync::Arc<tokio::sync::Mutex<()>>,
}

impl Store {
    /// Opens (creating where needed) the database at `url` (`sqlite://FILE` or `postgres://...`)
    /// and applies the migrations it lacks.
    pub async fn open(url: &str) -> Result<Store> {
        sqlx::any::install_default_drivers();
        let postgres = url.starts_with("postgres://") || url.starts_with("postgresql://");
        let (url, max) = if postgres {
            (url.to_string(), 8)
        } else if let Some(path) = url.strip_prefix("sqlite://") {
            private_file(std::path::Path::new(path)).map_err(|e| StoreError::Url(e.to_string()))?;
            (format!("sqlite://{path}?mode=rwc"), 4)
        } else {
            return Err(StoreError::Url(url.to_string()));
        };
        let pool = AnyPoolOptions::new()
            .max_connections(max)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if !postgres {
                        // Per connection: foreign keys on, wait for a writer rather than fail.
                        sqlx::query("PRAGMA foreign_keys = ON")
                            .execute(&mut *conn)
                            .await?;
                        sqlx::query("PRAGMA busy_timeout = 10000")
                            .execute(&mut *conn)
                            .await?;
                        sqlx::query("PRAGMA synchronous = NORMAL")
                            .execute(&mut *conn)
                            .await?;
                        // Deleted rows are overwritten, not left in the file's free pages.
                        sqlx::query("PRAGMA secure_delete = ON")
                            .execute(&mut *conn)
                            .await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await?;
        if !postgres {
            sqlx::query("PRAGMA journal_mode = WAL")
                .execute(&pool)
                .await?;
        }
        let store = Store {
            pool,
            postgres,
            submitting: Default::default(),
        };
        store.migrate().await?;
        store.fill_name_keys().await?;
        Ok(store)
    }

    /// Whether this store is PostgreSQL (else SQLite).
    pub fn is_postgres(&self) -> bool {
        self.postgres
    }

    /// Applies the migrations not yet applied, in one transaction. On PostgreSQL an advisory
    /// lock makes processes that start at once take turns; on SQLite a busy database is tried
    /// again.
    async fn migrate(&self) -> Result<()> {
        let mut attempt = 0;
        loop {
            match self.migrate_once().await {
                Ok(()) => return Ok(()),
                Err(e) if attempt < 5 => {
                    attempt += 1;
                    let _ = e;
                    tokio::time::sleep(std::time::Duration::from_millis(200 * attempt)).await;
                }
                Err(e) => return Err(e),
            }
        }
    }

    async fn migrate_once(&self) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        if self.postgres {
            sqlx::query("SELECT pg_advisory_xact_lock(727072707)")
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied BIGINT NOT NULL)",
        )
        .execute(&mut *tx)
        .await?;
        for &(version, sql) in MIGRATIONS {
            let done: Option<AnyRow> =
                sqlx::query("SELECT version FROM schema_migrations WHERE version = $1")
                    .bind(version)
                    .fetch_optional(&mut *tx)
                    .await?;
            if done.is_some() {
                continue;
            }
            // Comment lines out first (they may hold ';'), then one statement per ';'.
            let code: String = sql
                .lines()
                .filter(|l| !l.trim_start().starts_with("--"))
                .collect::<Vec<_>>()
                .join("\n");
            for statement in code.split(';').map(str::trim).filter(|s| !s.is_empty()) {
                sqlx::query(statement)
                    .execute(&mut *tx)
                    .await
                    .map_err(|e| StoreError::Migration {
                        version,
                        error: e.to_string(),
                    })?;
            }
            sqlx::query("INSERT INTO schema_migrations (version, applied) VALUES ($1, $2)")
                .bind(version)
                .bind(now())
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    // ---- accounts ----

    /// Creates an account; `None` when the name is taken.
    pub async fn create_user(&self, name: &str, password: &str) -> Result<Option<User>> {
        let hash = hash_password(password).await?;
        let id = new_id();
        let key = name_key(name);
        // One statement checks and inserts (on PostgreSQL under the submissions' lock), so two
        // names that differ only in case or Unicode form never both become accounts.
        let insert = sqlx::query(
            "INSERT INTO users (id, name, password_hash, created, name_key) SELECT $1, $2, $3, $4, $5 \
             WHERE NOT EXISTS (SELECT 1 FROM users WHERE name_key = $5 OR name = $2)",
        )
        .bind(&id)
        .bind(name)
        .bind(&hash)
        .bind(now())
        .bind(&key);
        let _turn = self.submitting.lock().await;
        let inserted = self.insert_locked(insert, 727072709).await?;
        Ok((inserted == 1).then(|| User {
            id,
            name: name.to_string(),
        }))
    }

    /// Runs a checking INSERT (one statement that counts and inserts) as the only one of its
    /// kind at a time: on PostgreSQL under the advisory lock `lock`, across processes; on
    /// SQLite the statement holds the write lock from its start. Returns the rows inserted.
    async fn insert_locked<'q>(
        &self,
        insert: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
        lock: i64,
    ) -> Result<u64> {
        if !self.postgres {
            return Ok(insert.execute(&self.pool).await?.rows_affected());
        }
        let mut tx = self.pool.begin().await?;
        sqlx::query("SELECT pg_advisory_xact_lock($1)")
            .bind(lock)
            .execute(&mut *tx)
            .await?;
        let done = insert.execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(done.rows_affected())
    }

    /// Gives accounts made before names were compared in NFKC case-folded form their key.
    async fn fill_name_keys(&self) -> Result<()> {
        let rows = sqlx::query("SELECT id, name FROM users WHERE name_key IS NULL")
            .fetch_all(&self.pool)
            .await?;
        for r in rows {
            let (id, name): (String, String) = (r.try_get("id")?, r.try_get("name")?);
            sqlx::query("UPDATE users SET name_key = $1 WHERE id = $2")
                .bind(name_key(&name))
                .bind(&id)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// How many accounts exist.
    pub async fn user_count(&self) -> Result<i64> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM users")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get::<i64, _>("n")?)
    }

    /// The account named `name`, if the password is right.
    pub async fn login(&self, name: &str, password: &str) -> Result<Option<User>> {
        // The account of that name, else of that name in another case or Unicode form.
        let row = sqlx::query(
            "SELECT id, name, password_hash FROM users WHERE name = $1 OR name_key = $2 \
             ORDER BY CASE WHEN name = $1 THEN 0 ELSE 1 END LIMIT 1",
        )
        .bind(name)
        .bind(name_key(name))
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            // The same work as for a real account, so timing says nothing of which names exist.
            let _ = verify_password(password, &dummy_hash().await).await;
            return Ok(None);
        };
        let hash: String = row.try_get("password_hash")?;
        if !verify_password(password, &hash).await {
            return Ok(None);
        }
        Ok(Some(User {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
        }))
    }

    /// Records a failed login for `who` (a name or an address).
    pub async fn login_failed(&self, who: &str) -> Result<()> {
        sqlx::query("INSERT INTO login_failures (who, at) VALUES ($1, $2)")
            .bind(who)
            .bind(now())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Failed logins of `who` since `since`.
    pub async fn login_failures(&self, who: &str, since: i64) -> Result<i64> {
        let row =
            sqlx::query("SELECT COUNT(*) AS n FROM login_failures WHERE who = $1 AND at >= $2")
                .bind(who)
                .bind(since)
                .fetch_one(&self.pool)
                .await?;
        Ok(row.try_get::<i64, _>("n")?)
    }

    /// A new session for `user`: (token for the cookie, CSRF token for its forms).
    pub async fn create_session(&self, user: &User, days: i64) -> Result<(String, String)> {
        let token = new_token();
        let csrf = csrf_of(&token);
        // The CSRF token follows from the session's own token, so the database keeps neither.
        sqlx::query(
            "INSERT INTO sessions (token_hash, user_id, csrf, expires) VALUES ($1, $2, '', $3)",
        )
        .bind(hash_token(&token))
        .bind(&user.id)
        .bind(now() + days * 86_400)
        .execute(&self.pool)
        .await?;
        Ok((token, csrf))
    }

    /// The user and CSRF token of a live session.
    pub async fn session(&self, token: &str) -> Result<Option<(User, String)>> {
        let row = sqlx::query(
            "SELECT u.id AS id, u.name AS name FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1 AND s.expires > $2",
        )
        .bind(hash_token(token))
        .bind(now())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok((
                User {
                    id: r.try_get("id")?,
                    name: r.try_get("name")?,
                },
                csrf_of(token),
            ))
        })
        .transpose()
    }

    /// Ends a session.
    pub async fn end_session(&self, token: &str) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(hash_token(token))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A new API token for `user` (for scripts: `Authorization: Bearer TOKEN`).
    pub async fn create_api_token(&self, user: &User) -> Result<String> {
        let token = new_token();
        sqlx::query(
            "INSERT INTO api_tokens (token_hash, user_id, created, expires) VALUES ($1, $2, $3, $4)",
        )
        .bind(hash_token(&token))
        .bind(&user.id)
        .bind(now())
        .bind(now() + API_TOKEN_DAYS * 86_400)
        .execute(&self.pool)
        .await?;
        Ok(token)
    }

    /// The user an API token belongs to, while it has not expired.
    pub async fn api_user(&self, token: &str) -> Result<Option<User>> {
        let row = sqlx::query(
            "SELECT u.id AS id, u.name AS name FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1 AND t.expires > $2",
        )
        .bind(hash_token(token))
        .bind(now())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(User {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
            })
        })
        .transpose()
    }

    /// The account named `name`.
    pub async fn user_named(&self, name: &str) -> Result<Option<User>> {
        let row = sqlx::query("SELECT id FROM users WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok(User {
                id: r.try_get("id")?,
                name: name.to_string(),
            })
        })
        .transpose()
    }

    /// The name of the account `id`.
    pub async fn user_name(&self, id: &str) -> Result<Option<String>> {
        let row = sqlx::query("SELECT name FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| r.try_get("name"))
            .transpose()
            .map_err(Into::into)
    }

    // ---- leagues ----

    /// A new league owned by `owner`, with its first version: (league id, version id).
    pub async fn create_league(
        &self,
        owner: &User,
        name: &str,
        toml: &str,
    ) -> Result<(String, String)> {
        let (league, version) = (new_id(), new_id());
        let mut tx = self.pool.begin().await?;
        sqlx::query("INSERT INTO leagues (id, owner, name, created) VALUES ($1, $2, $3, $4)")
            .bind(&league)
            .bind(&owner.id)
            .bind(name)
            .bind(now())
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO league_versions (id, league, number, toml, created) VALUES ($1, $2, 1, $3, $4)",
        )
        .bind(&version)
        .bind(&league)
        .bind(toml)
        .bind(now())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok((league, version))
    }

    /// A new version of a league's file (its name follows the file): the version's id.
    pub async fn add_version(&self, league: &str, name: &str, toml: &str) -> Result<String> {
        let id = new_id();
        let mut tx = self.pool.begin().await?;
        let row = sqlx::query(
            "SELECT COALESCE(MAX(number), 0) AS n FROM league_versions WHERE league = $1",
        )
        .bind(league)
        .fetch_one(&mut *tx)
        .await?;
        let n: i64 = row.try_get("n")?;
        sqlx::query(
            "INSERT INTO league_versions (id, league, number, toml, created) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&id)
        .bind(league)
        .bind(n + 1)
        .bind(toml)
        .bind(now())
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE leagues SET name = $1 WHERE id = $2")
            .bind(name)
            .bind(league)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(id)
    }

    /// How `user` may reach `league`; `None` when not at all (or no such league).
    pub async fn access(&self, league: &str, user: &User) -> Result<Option<Access>> {
        let row = sqlx::query("SELECT owner FROM leagues WHERE id = $1")
            .bind(league)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        if row.try_get::<String, _>("owner")? == user.id {
            return Ok(Some(Access::Owner));
        }
        let member = sqlx::query("SELECT role FROM members WHERE league = $1 AND user_id = $2")
            .bind(league)
            .bind(&user.id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(member.map(|_| Access::Committee))
    }

    /// A league by id.
    pub async fn league(&self, id: &str) -> Result<Option<League>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {LEAGUE_COLUMNS} FROM leagues l WHERE l.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// The leagues `user` owns or was invited to.
    pub async fn leagues_of(&self, user: &User) -> Result<Vec<League>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {LEAGUE_COLUMNS} FROM leagues l WHERE l.owner = $1 OR l.id IN (SELECT league FROM members WHERE user_id = $1) ORDER BY l.created"
        ))
        .bind(&user.id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// A league version by id.
    pub async fn version(&self, id: &str) -> Result<Option<Version>> {
        let row = sqlx::query("SELECT id, league, number, toml FROM league_versions WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok(Version {
                id: r.try_get("id")?,
                league: r.try_get("league")?,
                number: r.try_get("number")?,
                toml: r.try_get("toml")?,
            })
        })
        .transpose()
    }

    /// Version `number` of a league.
    pub async fn version_number(&self, league: &str, number: i64) -> Result<Option<Version>> {
        let row = sqlx::query("SELECT id FROM league_versions WHERE league = $1 AND number = $2")
            .bind(league)
            .bind(number)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(r) => self.version(&r.try_get::<String, _>("id")?).await,
            None => Ok(None),
        }
    }

    /// The latest version of a league.
    pub async fn latest_version(&self, league: &str) -> Result<Option<Version>> {
        let row = sqlx::query(
            "SELECT id FROM league_versions WHERE league = $1 ORDER BY number DESC LIMIT 1",
        )
        .bind(league)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            Some(r) => self.version(&r.try_get::<String, _>("id")?).await,
            None => Ok(None),
        }
    }

    /// An invitation to a league's committee, good for one use within `days` days: the token
    /// for the link.
    pub async fn invite(&self, league: &str, days: i64) -> Result<String> {
        let token = new_token();
        sqlx::query(
            "INSERT INTO invitations (token_hash, league, role, created, expires) VALUES ($1, $2, 'committee', $3, $4)",
        )
        .bind(hash_token(&token))
        .bind(league)
        .bind(now())
        .bind(now() + days * 86_400)
        .execute(&self.pool)
        .await?;
        Ok(token)
    }

    /// A league's invitations, newest first.
    pub async fn invitations(&self, league: &str) -> Result<Vec<Invitation>> {
        let rows = sqlx::query(
            "SELECT token_hash, created, expires, used_by FROM invitations WHERE league = $1 ORDER BY created DESC",
        )
        .bind(league)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Invitation {
                    id: r.try_get::<String, _>("token_hash")?[..32].to_string(),
                    created: r.try_get("created")?,
                    expires: r.try_get("expires")?,
                    used: r.try_get::<Option<String>, _>("used_by")?.is_some(),
                })
            })
            .collect()
    }

    /// Withdraws an invitation of a league (by the id `invitations` gives); whether it existed.
    pub async fn revoke_invitation(&self, league: &str, id: &str) -> Result<bool> {
        self.delete_by_token_id(
            "DELETE FROM invitations WHERE league = $1 AND substr(token_hash, 1, 32) = $2",
            league,
            id,
        )
        .await
    }

    /// Runs a DELETE of one row named by its owner and the id shown for a hashed token (the
    /// hash's first 32 hex digits): whether there was one.
    async fn delete_by_token_id(&self, sql: &str, owner: &str, id: &str) -> Result<bool> {
        if id.len() != 32 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Ok(false);
        }
        self.delete_where(sql, owner, id).await
    }

    /// Runs a DELETE with two parameters: whether it deleted anything.
    async fn delete_where(&self, sql: &str, a: &str, b: &str) -> Result<bool> {
        let done = sqlx::query(sql).bind(a).bind(b).execute(&self.pool).await?;
        Ok(done.rows_affected() > 0)
    }

    /// Makes `user` a committee member of the invitation's league: the league's id. An
    /// invitation is used up by its first acceptance (the same member may open it again) and
    /// is void once it has expired or been withdrawn.
    pub async fn accept(&self, token: &str, user: &User) -> Result<Option<String>> {
        let hash = hash_token(token);
        let taken = sqlx::query(
            "UPDATE invitations SET used_by = $1 WHERE token_hash = $2 AND used_by IS NULL AND expires > $3 RETURNING league",
        )
        .bind(&user.id)
        .bind(&hash)
        .bind(now())
        .fetch_optional(&self.pool)
        .await?;
        let league: String = match taken {
            Some(row) => row.try_get("league")?,
            None => {
                let again = sqlx::query(
                    "SELECT league FROM invitations WHERE token_hash = $1 AND used_by = $2",
                )
                .bind(&hash)
                .bind(&user.id)
                .fetch_optional(&self.pool)
                .await?;
                match again {
                    Some(row) => row.try_get("league")?,
                    None => return Ok(None),
                }
            }
        };
        sqlx::query(
            "INSERT INTO members (league, user_id, role) VALUES ($1, $2, 'committee') ON CONFLICT (league, user_id) DO NOTHING",
        )
        .bind(&league)
        .bind(&user.id)
        .execute(&self.pool)
        .await?;
        Ok(Some(league))
    }

    /// A league's committee members: (account id, name).
    pub async fn members(&self, league: &str) -> Result<Vec<(String, String)>> {
        let rows = sqlx::query(
            "SELECT users.id AS id, users.name AS name FROM members JOIN users ON users.id = members.user_id WHERE members.league = $1 ORDER BY users.name",
        )
        .bind(league)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("name")?)))
            .collect()
    }

    /// Removes a committee member; whether they were one.
    pub async fn remove_member(&self, league: &str, user_id: &str) -> Result<bool> {
        self.delete_where(
            "DELETE FROM members WHERE league = $1 AND user_id = $2",
            league,
            user_id,
        )
        .await
    }

    /// Deletes a league with its versions, jobs, files, publications, members and invitations.
    pub async fn delete_league(&self, league: &str) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        // Publications name their league version without a cascade: they go first.
        sqlx::query("DELETE FROM publications WHERE league = $1")
            .bind(league)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM leagues WHERE id = $1")
            .bind(league)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Deletes a publication of a league; whether it existed.
    pub async fn delete_publication(&self, league: &str, id: &str) -> Result<bool> {
        self.delete_where(
            "DELETE FROM publications WHERE league = $1 AND id = $2",
            league,
            id,
        )
        .await
    }

    /// Deletes a league version no publication names (its jobs go with it): `Ok(false)` when
    /// it does not exist, an error message when it is published.
    pub async fn delete_version(
        &self,
        league: &str,
        number: i64,
    ) -> Result<std::result::Result<bool, Published>> {
        let Some(v) = self.version_number(league, number).await? else {
            return Ok(Ok(false));
        };
        let published = sqlx::query("SELECT number FROM publications WHERE version = $1")
            .bind(&v.id)
            .fetch_optional(&self.pool)
            .await?;
        if let Some(p) = published {
            return Ok(Err(Published {
                version: number,
                publication: p.try_get("number")?,
            }));
        }
        sqlx::query("DELETE FROM league_versions WHERE id = $1")
            .bind(&v.id)
            .execute(&self.pool)
            .await?;
        Ok(Ok(true))
    }

    /// Deletes an account with everything it owns (its leagues and their publications, jobs,
    /// sessions and tokens).
    pub async fn delete_user(&self, user: &User) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "DELETE FROM publications WHERE league IN (SELECT id FROM leagues WHERE owner = $1)",
        )
        .bind(&user.id)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM users WHERE id = $1")
            .bind(&user.id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// An account's API tokens: (id, created, expires), newest first.
    pub async fn api_tokens(&self, user: &User) -> Result<Vec<(String, i64, i64)>> {
        let rows = sqlx::query(
            "SELECT token_hash, created, expires FROM api_tokens WHERE user_id = $1 ORDER BY created DESC",
        )
        .bind(&user.id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get::<String, _>("token_hash")?[..32].to_string(),
                    r.try_get("created")?,
                    r.try_get("expires")?,
                ))
            })
            .collect()
    }

    /// Revokes one of an account's API tokens (by the id `api_tokens` gives); whether it was
    /// there.
    pub async fn revoke_api_token(&self, user: &User, id: &str) -> Result<bool> {
        self.delete_by_token_id(
            "DELETE FROM api_tokens WHERE user_id = $1 AND substr(token_hash, 1, 32) = $2",
            &user.id,
            id,
        )
        .await
    }

    // ---- jobs ----

    /// Queues a job if it fits under the caps: always a new row, never a clobbered one. The
    /// counts and the insert are one step, so concurrent submissions never pass a cap.
    pub async fn submit(
        &self,
        owner: &User,
        league: &str,
        version: &str,
        spec: &str,
        time_limit: f64,
        caps: Caps,
    ) -> Result<std::result::Result<Job, Full>> {
        let _turn = self.submitting.lock().await;
        let id = new_id();
        let figures = serde_json::to_string(&Figures::default()).unwrap_or_default();
        let micros = chrono::Utc::now().timestamp_micros();
        // One statement counts and inserts: on SQLite it takes the write lock from its start,
        // so no other writer comes between; on PostgreSQL the advisory lock orders the
        // submissions of every process.
        let insert = sqlx::query(
            "INSERT INTO jobs (id, owner, league, version, spec, time_limit, state, submitted, figures, submitted_us) \
             SELECT $1, $2, $3, $4, $5, $6, 'queued', $7, $8, $9 \
             WHERE (SELECT COUNT(*) FROM jobs WHERE owner = $2 AND state IN ('queued', 'running')) < $10 \
             AND (SELECT COUNT(*) FROM jobs WHERE state = 'queued') < $11",
        )
        .bind(&id)
        .bind(&owner.id)
        .bind(league)
        .bind(version)
        .bind(spec)
        .bind(time_limit)
        .bind(micros / 1_000_000)
        .bind(&figures)
        .bind(micros)
        .bind(caps.per_account)
        .bind(caps.queue);
        let inserted = self.insert_locked(insert, 727072708).await?;
        if inserted == 0 {
            let mine = self.open_jobs(owner).await?;
            return Ok(Err(if mine >= caps.per_account {
                Full::Account(mine)
            } else {
                Full::Queue(self.queued().await?)
            }));
        }
        drop(_turn);
        self.job(&id)
            .await?
            .ok_or(StoreError::Db(sqlx::Error::RowNotFound))
            .map(Ok)
    }

    /// Jobs of `owner` waiting or running.
    pub async fn open_jobs(&self, owner: &User) -> Result<i64> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM jobs WHERE owner = $1 AND state IN ('queued', 'running')",
        )
        .bind(&owner.id)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")?)
    }

    /// Jobs waiting in all.
    pub async fn queued(&self) -> Result<i64> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM jobs WHERE state = 'queued'")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get::<i64, _>("n")?)
    }

    /// A job by id.
    pub async fn job(&self, id: &str) -> Result<Option<Job>> {
        let row = sqlx::query(&format!("SELECT {JOB_COLUMNS} FROM jobs WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| job_of(&r)).transpose()
    }

    /// The jobs of a league, newest first.
    pub async fn jobs_of_league(&self, league: &str) -> Result<Vec<Job>> {
        let rows = sqlx::query(&format!(
            "SELECT {JOB_COLUMNS} FROM jobs WHERE league = $1 ORDER BY submitted DESC"
        ))
        .bind(league)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(job_of).collect()
    }

    /// Cancels a queued or running job (its worker sees it at its next lease renewal and stops;
    /// nothing of it is stored). Returns whether it was open.
    pub async fn cancel(&self, id: &str) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE jobs SET state = 'cancelled', finished = $1 WHERE id = $2 AND state IN ('queued', 'running')",
        )
        .bind(now())
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Removes a job and its files.
    pub async fn delete_job(&self, id: &str) -> Result<()> {
        sqlx::query("DELETE FROM jobs WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Claims a running job whose lease has run out (its worker died) first, else the oldest
    /// queued job, for `worker` until `now + lease` seconds. Two workers never claim one job.
    pub async fn claim(&self, worker: &str, lease: i64) -> Result<Option<Claim>> {
        let t = now();
        let lock = if self.postgres {
            " FOR UPDATE SKIP LOCKED"
        } else {
            ""
        };
        let sql = format!(
            "UPDATE jobs SET state = 'running', worker = $1, lease_until = $2, started = $3, attempts = attempts + 1 \
             WHERE id = (SELECT id FROM jobs WHERE state = 'queued' OR (state = 'running' AND lease_until < $3) \
             ORDER BY CASE WHEN state = 'running' THEN 0 ELSE 1 END, submitted_us, submitted LIMIT 1{lock}) RETURNING id, attempts"
        );
        let row = sqlx::query(&sql)
            .bind(worker)
            .bind(t + lease)
            .bind(t)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let id: String = row.try_get("id")?;
        let attempt: i64 = row.try_get("attempts")?;
        Ok(self.job(&id).await?.map(|job| Claim { job, attempt }))
    }

    /// Renews a claim's lease and stores its progress; false when the job is no longer this
    /// attempt's (cancelled, or the lease ran out and another worker took it): stop.
    pub async fn renew(
        &self,
        claim: &Claim,
        worker: &str,
        lease: i64,
        figures: &Figures,
    ) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE jobs SET lease_until = $1, figures = $2 WHERE id = $3 AND worker = $4 AND attempts = $5 AND state = 'running'",
        )
        .bind(now() + lease)
        .bind(serde_json::to_string(figures).unwrap_or_default())
        .bind(&claim.job.id)
        .bind(worker)
        .bind(claim.attempt)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Hands the running jobs of the workers whose names start with `prefix` back to the queue
    /// (a clean stop: the attempt is not counted). Returns how many.
    pub async fn release(&self, prefix: &str) -> Result<u64> {
        let done = sqlx::query(
            "UPDATE jobs SET state = 'queued', worker = NULL, lease_until = NULL, attempts = attempts - 1 \
             WHERE state = 'running' AND substr(worker, 1, length($1)) = $1",
        )
        .bind(prefix)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// Whether a claim still holds (the job is this attempt's and running).
    pub async fn holds(&self, claim: &Claim, worker: &str) -> Result<bool> {
        let row = sqlx::query(
            "SELECT id FROM jobs WHERE id = $1 AND worker = $2 AND attempts = $3 AND state = 'running'",
        )
        .bind(&claim.job.id)
        .bind(worker)
        .bind(claim.attempt)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    /// Stores a claim's result: its final state, figures and files, in one transaction, only if
    /// the claim still holds (so no job is completed twice). Returns whether it was stored.
    pub async fn finish(
        &self,
        claim: &Claim,
        worker: &str,
        state: JobState,
        figures: &Figures,
        files: &[(String, String)],
    ) -> Result<bool> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE jobs SET state = $1, figures = $2, finished = $3, completions = completions + 1 WHERE id = $4 AND worker = $5 AND attempts = $6 AND state = 'running'",
        )
        .bind(state.as_str())
        .bind(serde_json::to_string(figures).unwrap_or_default())
        .bind(now())
        .bind(&claim.job.id)
        .bind(worker)
        .bind(claim.attempt)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        for (name, content) in files {
            sqlx::query("INSERT INTO job_files (job, name, content) VALUES ($1, $2, $3)")
                .bind(&claim.job.id)
                .bind(name)
                .bind(content)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// A file of a job's result.
    pub async fn file(&self, job: &str, name: &str) -> Result<Option<String>> {
        let row = sqlx::query("SELECT content FROM job_files WHERE job = $1 AND name = $2")
            .bind(job)
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok(r.try_get("content")?)).transpose()
    }

    /// The names of a job's files.
    pub async fn files(&self, job: &str) -> Result<Vec<String>> {
        let rows = sqlx::query("SELECT name FROM job_files WHERE job = $1 ORDER BY name")
            .bind(job)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok(r.try_get("name")?)).collect()
    }

    /// Removes jobs (and their files) that ended before `before`, and old login failures.
    pub async fn purge(&self, before: i64) -> Result<u64> {
        let done = sqlx::query(
            "DELETE FROM jobs WHERE finished IS NOT NULL AND finished < $1 AND state NOT IN ('queued', 'running')",
        )
        .bind(before)
        .execute(&self.pool)
        .await?;
        sqlx::query("DELETE FROM login_failures WHERE at < $1")
            .bind(now() - 86_400)
            .execute(&self.pool)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE expires < $1")
            .bind(now())
            .execute(&self.pool)
            .await?;
        sqlx::query("DELETE FROM api_tokens WHERE expires < $1")
            .bind(now())
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    // ---- publications ----

    /// A league's season record (JSON) and its revision; `None` before its first publication
    /// through the season.
    pub async fn season(&self, league: &str) -> Result<Option<(String, i64)>> {
        let row = sqlx::query("SELECT record, rev FROM seasons WHERE league = $1")
            .bind(league)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some((r.try_get("record")?, r.try_get("rev")?)),
            None => None,
        })
    }

    /// Writes a league's season record read at `rev` after an operation that published
    /// nothing (a result entered); `false` (and nothing written) when the season changed
    /// since.
    pub async fn update_season(&self, league: &str, record: &str, rev: i64) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE seasons SET record = $1, rev = rev + 1, updated = $2 WHERE league = $3 AND rev = $4",
        )
        .bind(record)
        .bind(now())
        .bind(league)
        .bind(rev)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Publishes one operation on a league's season: the new league version (if any), the
    /// list as the league's next publication, and the season record, together; `None` (and
    /// nothing written) when the season changed since `u.rev` was read.
    pub async fn publish_season(&self, u: SeasonUpdate<'_>) -> Result<Option<Publication>> {
        let mut tx = self.pool.begin().await?;
        let saved = match u.rev {
            None => sqlx::query(
                "INSERT INTO seasons (league, record, rev, updated) SELECT $1, $2, 1, $3 WHERE NOT EXISTS (SELECT 1 FROM seasons WHERE league = $4)",
            )
            .bind(u.league)
            .bind(u.record)
            .bind(now())
            .bind(u.league),
            Some(rev) => sqlx::query(
                "UPDATE seasons SET record = $1, rev = rev + 1, updated = $2 WHERE league = $3 AND rev = $4",
            )
            .bind(u.record)
            .bind(now())
            .bind(u.league)
            .bind(rev),
        }
        .execute(&mut *tx)
        .await?;
        if saved.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(None);
        }
        let version = match u.version {
            VersionOf::Stored(id) => id.to_string(),
            VersionOf::New(name, toml) => {
                let id = new_id();
                let n: i64 = sqlx::query(
                    "SELECT COALESCE(MAX(number), 0) AS n FROM league_versions WHERE league = $1",
                )
                .bind(u.league)
                .fetch_one(&mut *tx)
                .await?
                .try_get("n")?;
                sqlx::query(
                    "INSERT INTO league_versions (id, league, number, toml, created) VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(&id)
                .bind(u.league)
                .bind(n + 1)
                .bind(toml)
                .bind(now())
                .execute(&mut *tx)
                .await?;
                sqlx::query("UPDATE leagues SET name = $1 WHERE id = $2")
                    .bind(name)
                    .bind(u.league)
                    .execute(&mut *tx)
                    .await?;
                id
            }
        };
        let id = new_id();
        let n: i64 =
            sqlx::query("SELECT COALESCE(MAX(number), 0) AS n FROM publications WHERE league = $1")
                .bind(u.league)
                .fetch_one(&mut *tx)
                .await?
                .try_get("n")?;
        sqlx::query(
            "INSERT INTO publications (id, league, number, version, job, csv, diff, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&id)
        .bind(u.league)
        .bind(n + 1)
        .bind(&version)
        .bind(u.job)
        .bind(u.csv)
        .bind(u.diff)
        .bind(now())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        self.publication(&id).await
    }

    /// A publication by its public id.
    pub async fn publication(&self, id: &str) -> Result<Option<Publication>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {PUBLICATION_COLUMNS} FROM publications WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// A league's publications, in order.
    pub async fn publications(&self, league: &str) -> Result<Vec<Publication>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {PUBLICATION_COLUMNS} FROM publications WHERE league = $1 ORDER BY number"
        ))
        .bind(league)
        .fetch_all(&self.pool)
        .await?)
    }
}

/// What one operation on a league's season publishes, in one transaction.
pub struct SeasonUpdate<'a> {
    /// The league.
    pub league: &'a str,
    /// The season record after the operation (JSON).
    pub record: &'a str,
    /// The revision it was read at; `None` for a season's first publication.
    pub rev: Option<i64>,
    /// The league version the list records: an existing version's id, or a new version's
    /// (league name, text).
    pub version: VersionOf<'a>,
    /// The job that made the list, if any.
    pub job: Option<&'a str>,
    /// The list (CSV, checked).
    pub csv: &'a str,
    /// Its change from the list before (CSV diff).
    pub diff: Option<&'a str>,
}

/// The league version a publication records.
pub enum VersionOf<'a> {
    /// A stored version, by id.
    Stored(&'a str),
    /// A new version: the league's name and the file's text.
    New(&'a str, &'a str),
}

/// A league's columns (`League`), from `leagues l`, with its latest version number.
const LEAGUE_COLUMNS: &str = "l.id AS id, l.name AS name, l.owner AS owner, (SELECT COALESCE(MAX(number), 0) FROM league_versions v WHERE v.league = l.id) AS versions";

/// A publication's columns (`Publication`).
const PUBLICATION_COLUMNS: &str = "id, league, number, version, csv, diff, created";

/// A job's columns (`job_of`).
const JOB_COLUMNS: &str = "id, owner, league, version, spec, time_limit, state, submitted, started, finished, attempts, completions, figures";

fn job_of(r: &AnyRow) -> Result<Job> {
    let figures: String = r.try_get("figures")?;
    Ok(Job {
        id: r.try_get("id")?,
        owner: r.try_get("owner")?,
        league: r.try_get("league")?,
        version: r.try_get("version")?,
        spec: r.try_get("spec")?,
        time_limit: r.try_get("time_limit")?,
        state: JobState::parse(&r.try_get::<String, _>("state")?)?,
        submitted: r.try_get("submitted")?,
        started: r.try_get("started")?,
        finished: r.try_get("finished")?,
        attempts: r.try_get("attempts")?,
        completions: r.try_get("completions")?,
        figures: serde_json::from_str(&figures).unwrap_or_default(),
    })
}

/// An argon2 hash of a random password, for logins of unknown names: the same work as a real
/// check, so the answer's timing says nothing of which names exist.
async fn dummy_hash() -> String {
    static DUMMY: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
    DUMMY
        .get_or_init(|| async { hash_password(&new_token()).await.unwrap_or_default() })
        .await
        .clone()
}

/// Password hashes computed at once: each takes about 19 MiB and a core for a moment, so a
/// burst of logins waits its turn instead of growing the process.
static HASHING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

async fn hash_password(password: &str) -> Result<String> {
    let password = password.to_string();
    let _turn = HASHING
        .acquire()
        .await
        .map_err(|e| StoreError::Hash(e.to_string()))?;
    tokio::task::spawn_blocking(move || {
        use argon2::password_hash::{PasswordHasher, SaltString};
        let salt = SaltString::encode_b64(&ids::random_bytes::<16>())
            .map_err(|e| StoreError::Hash(e.to_string()))?;
        argon2::Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| StoreError::Hash(e.to_string()))
    })
    .await
    .map_err(|e| StoreError::Hash(e.to_string()))?
}

async fn verify_password(password: &str, hash: &str) -> bool {
    let (password, hash) = (password.to_string(), hash.to_string());
    let Ok(_turn) = HASHING.acquire().await else {
        return false;
    };
    tokio::task::spawn_blocking(move || {
        use argon2::password_hash::{PasswordHash, PasswordVerifier};
        PasswordHash::new(&hash).is_ok_and(|h| {
            argon2::Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
    })
    .await
    .unwrap_or(false)
}

/// Creates the database file readable by its owner alone (0600) when it does not exist, and
/// makes it so when it does; SQLite gives its journal files the same mode.
fn private_file(path: &std::path::Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(path)?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_states_read_back_as_written_and_as_the_api_shows_them() {
        for s in JobState::ALL {
            assert_eq!(JobState::parse(s.as_str()).unwrap(), s);
            assert_eq!(
                serde_json::to_string(&s).unwrap(),
                format!("\"{}\"", s.as_str())
            );
        }
        assert!(JobState::parse("finished").is_err());
        assert_eq!(
            JobState::ALL.iter().filter(|s| s.is_open()).count(),
            2,
            "queued and running"
        );
    }
}
