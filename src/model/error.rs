//! Typed input errors: every one names the file, the line and the key.

use std::fmt;

/// What is wrong with one key of a league file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    #[error("cannot read the file: {0}")]
    Unreadable(String),
    #[error("{0}")]
    Syntax(String),
    #[error("unknown {what} \"{name}\"")]
    Unknown { what: &'static str, name: String },
    #[error("two {what}s are called \"{name}\" (the first is on line {first_line})")]
    Duplicate {
        what: &'static str,
        name: String,
        first_line: usize,
    },
    #[error("\"{0}\" is not a weekday (use Mon Tue Wed Thu Fri Sat Sun)")]
    BadWeekday(String),
    #[error("{0}")]
    BadDate(String),
    #[error("`end` ({end}) is before `start` ({start})")]
    EndBeforeStart { start: String, end: String },
    #[error("range ends ({to}) before it starts ({from})")]
    RangeBackwards { from: String, to: String },
    #[error("{0}")]
    BadValue(String),
    #[error("team \"{team}\" has no opponent: it is the only team in division \"{division}\"")]
    NoOpponent { team: String, division: String },
    #[error("team \"{team}\" declares {count} unavailable dates (with its club's); the league allows at most {max}")]
    TooManyUnavailable {
        team: String,
        count: usize,
        max: u32,
    },
    #[error("{0}")]
    Fixture(String),
    #[error("{0}")]
    Missing(String),
}

/// One input error, located.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    pub file: String,
    /// 1-based; 0 when the error is not tied to a line.
    pub line: usize,
    pub key: String,
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
