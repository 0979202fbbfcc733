//! Small league files for tests, unit and integration alike: a season, its rules, and clubs,
//! venues, divisions and teams added one call each. Every club made by `club` hosts every day
//! at a hall of its own unless told otherwise.

use crate::{parse_league, League};

/// Every night of the week, as a league file lists nights.
pub const ALL_NIGHTS: &str = r#"["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]"#;

/// A league file being built.
#[derive(Debug, Clone)]
pub struct Lg {
    head: String,
    rules: Vec<String>,
    weights: Vec<String>,
    body: Vec<String>,
    divisions: Vec<String>,
}

impl Lg {
    /// "Test League", from `start` to `end` (inclusive), with a day's rest and no club first.
    pub fn new(start: &str, end: &str) -> Self {
        Lg::named("Test League", start, end)
    }

    /// A league called `name`, from `start` to `end`.
    pub fn named(name: &str, start: &str, end: &str) -> Self {
        Lg {
            head: format!("name = \"{name}\"\nstart = {start}\nend = {end}\n"),
            rules: vec![
                "min_days_between = 1".into(),
                "same_club_first = false".into(),
            ],
            weights: Vec::new(),
            body: Vec::new(),
            divisions: Vec::new(),
        }
    }

    /// A line of the file's top table (`closed = [...]`).
    pub fn top(mut self, line: &str) -> Self {
        self.head.push_str(line);
        self.head.push('\n');
        self
    }

    /// A line of `[rules]`, replacing the rule's earlier value.
    pub fn rule(mut self, line: &str) -> Self {
        let key = |l: &str| l.split('=').next().unwrap_or("").trim().to_string();
        let k = key(line);
        self.rules.retain(|r| key(r) != k);
        self.rules.push(line.into());
        self
    }

    /// A line of `[weights]`.
    pub fn weight(mut self, line: &str) -> Self {
        self.weights.push(line.into());
        self
    }

    /// A venue, with more of its keys in `extra`.
    pub fn venue(mut self, name: &str, extra: &str) -> Self {
        self.body
            .push(format!("[[venue]]\nname = \"{name}\"\n{extra}\n"));
        self
    }

    /// A club with its own venue of capacity 10 (named after it), hosting every day.
    pub fn club(mut self, name: &str, extra: &str) -> Self {
        self.body.push(format!(
            "[[venue]]\nname = \"{name} Hall\"\ncapacity = 10\n\n[[club]]\nname = \"{name}\"\nvenue = \"{name} Hall\"\nnights = {ALL_NIGHTS}\n{extra}\n"
        ));
        self
    }

    /// A club at `venue`, hosting on `nights` (`["Thu"]`), with more of its keys in `extra`.
    pub fn club_at(mut self, name: &str, venue: &str, nights: &str, extra: &str) -> Self {
        self.body.push(format!(
            "[[club]]\nname = \"{name}\"\nvenue = \"{venue}\"\nnights = {nights}\n{extra}\n"
        ));
        self
    }

    /// A division of `format` (single, double, auto, pools, swiss).
    pub fn division(mut self, name: &str, format: &str) -> Self {
        self.divisions.push(format!(
            "[[division]]\nname = \"{name}\"\nformat = \"{format}\"\n"
        ));
        self
    }

    /// A team of `club` in `division`, with more of its keys in `extra`.
    pub fn team(mut self, name: &str, club: &str, division: &str, extra: &str) -> Self {
        self.body.push(format!(
            "[[team]]\nname = \"{name}\"\nclub = \"{club}\"\ndivision = \"{division}\"\n{extra}\n"
        ));
        self
    }

    /// Any text of a league file, as written.
    pub fn raw(mut self, text: &str) -> Self {
        self.body.push(text.to_string());
        self
    }

    /// The league file.
    pub fn toml(&self) -> String {
        let weights = if self.weights.is_empty() {
            String::new()
        } else {
            format!("[weights]\n{}\n\n", self.weights.join("\n"))
        };
        format!(
            "{}\n[rules]\n{}\n\n{weights}{}\n{}",
            self.head,
            self.rules.join("\n"),
            self.divisions.join("\n"),
            self.body.join("\n")
        )
    }

    /// The league, read; panics with the loader's messages when it does not read (a test's
    /// league is the test's own mistake).
    pub fn league(&self) -> League {
        let text = self.toml();
        parse_league(&text, "test.toml").unwrap_or_else(|e| panic!("{e}\n{text}"))
    }
}
