//! The `fixtures` command line: parses the arguments and dispatches to `cli`, one module per
//! subcommand.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    // `fixtures ... | head` must end quietly when the reader goes away, as other Unix tools do,
    // not panic on a broken pipe.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => {
            let code = if e.use_stderr() {
                cli::EXIT_INVALID_INPUT
            } else {
                0
            };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            for line in &e.lines {
                eprintln!("{line}");
            }
            ExitCode::from(e.code)
        }
    }
}
