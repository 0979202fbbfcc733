//! Typed input errors: every one names the file, the line and the key.

use std::fmt;

/// What is wrong with one key of a league file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// The file cannot be read (missing, too big, not UTF-8).
    #[error("cannot read the file: {0}")]
    Unreadable(String),
    /// Not valid TOML.
    #[error("{0}")]
    Syntax(String),
    /// A name that names nothing of its kind.
    #[error("unknown {what} \"{name}\"")]
    Unknown {
        /// venue, club, division or team.
        what: &'static str,
        /// The name given.
        name: String,
    },
    /// Two things of one kind with one name.
    #[error("two {what}s are called \"{name}\" (the first is on line {first_line})")]
    Duplicate {
        /// venue, club, division or team.
        what: &'static str,
        /// The name.
        name: String,
        /// The line of the first.
        first_line: usize,
    },
    /// Not one of the weekdays the spec spells.
    #[error("\"{0}\" is not a weekday (use Mon Tue Wed Thu Fri Sat Sun)")]
    BadWeekday(String),
    /// Not a date, or not a real one.
    #[error("{0}")]
    BadDate(String),
    /// The season ends before it starts.
    #[error("`end` ({end}) is before `start` ({start})")]
    EndBeforeStart {
        /// The start given.
        start: String,
        /// The end given.
        end: String,
    },
    /// A date range that ends before it starts.
    #[error("range ends ({to}) before it starts ({from})")]
    RangeBackwards {
        /// The range's start.
        from: String,
        /// The range's end.
        to: String,
    },
    /// A value out of range or of the wrong kind.
    #[error("{0}")]
    BadValue(String),
    /// A team alone in its division.
    #[error("team \"{team}\" has no opponent: it is the only team in division \"{division}\"")]
    NoOpponent {
        /// The team.
        team: String,
        /// Its division.
        division: String,
    },
    /// More unavailable dates than `max_unavailable` allows.
    #[error("team \"{team}\" declares {count} unavailable dates (home or away, with its club's); the league allows at most {max}")]
    TooManyUnavailable {
        /// The team.
        team: String,
        /// Its unavailable dates, home or away, its club's included (not those given later).
        count: usize,
        /// The league's limit.
        max: u32,
    },
    /// A `[[fixed]]` or `[[excluded]]` fixture that is not a fixture of the season.
    #[error("{0}")]
    Fixture(String),
    /// Something required is missing.
    #[error("{0}")]
    Missing(String),
}

/// One input error, located.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The file.
    pub file: String,
    /// 1-based; 0 when the error is not tied to a line.
    pub line: usize,
    /// The key (dotted path), empty when the error is not tied to one.
    pub key: String,
    /// What is wrong.
    pub problem: Problem,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
        }
        if !self.key.is_empty() {
            write!(f, ": key `{}`", self.key)?;
        }
        write!(f, ": {}", self.problem)
    }
}

impl std::error::Error for InputError {}

/// All the errors found in one input, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputErrors(pub Vec<InputError>);

impl fmt::Display for InputErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "error: {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for InputErrors {}
