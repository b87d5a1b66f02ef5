use clap::Parser;
use puzzlepress::cli::{Cli, Command};

/// mimalloc for the whole process: glibc's malloc and free were a tenth of a dictionary's
/// time (threads setting paragraphs, each with its own arena), mimalloc's a few hundredths.
/// Its version 2 (the `v2` feature): version 3 spread a run's memory over more fresh huge
/// pages, each cleared by the kernel (a fifth of the dictionary bench's CPU), and made the
/// bench 9 % and `puzzlepress book` 8 % slower.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    // Commands that never await start without a runtime (its I/O driver and timers were
    // a few hundredths of a dictionary's time), and without logging (they log nothing).
    // Read by a parser of their own arguments only; help and mistakes by the whole one.
    let one_shot = |command| match command {
        Command::Dictionary(args) => Some(exit_now(puzzlepress::offline::dictionary(&args))),
        Command::Wordsearch(args) => Some(exit_now(puzzlepress::offline::wordsearch(&args))),
        _ => None,
    };
    if let Some(done) = puzzlepress::cli::one_shot(std::env::args_os()).and_then(one_shot) {
        return done;
    }
    let mut cli = Cli::parse();
    if let Some(done) =
        cli.command.take_if(|c| matches!(c, Command::Dictionary(_) | Command::Wordsearch(_))).and_then(one_shot)
    {
        return done;
    }
    puzzlepress::server::init_logging();
    // The server wants a worker thread a core; the other commands await a database or a
    // probe now and then, and start faster on the thread they have.
    let runtime = match cli.command {
        None | Some(Command::Serve(_)) => tokio::runtime::Builder::new_multi_thread(),
        Some(_) => tokio::runtime::Builder::new_current_thread(),
    }
    .enable_all()
    .build()?;
    runtime.block_on(run(cli))
}

/// Ends a one-shot command that succeeded at once: its memory is the kernel's to reclaim,
/// and the allocator's clean-up at exit only kept the caller waiting, half a millisecond
/// of a 2,000-entry dictionary's 18. A failure returns, to be reported as usual.
fn exit_now(done: anyhow::Result<()>) -> anyhow::Result<()> {
    done?;
    std::io::Write::flush(&mut std::io::stdout())?;
    // SAFETY: `_exit` only ends the process, running no destructors or exit handlers:
    // standard output is flushed above, the files written were closed as they were written,
    // and nothing else is left to do.
    unsafe { libc::_exit(0) }
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        None => puzzlepress::server::serve(cli.serve).await,
        Some(Command::Serve(args)) => puzzlepress::server::serve(args).await,
        Some(Command::Migrate(args)) => puzzlepress::server::migrate(&args.database_url).await,
        Some(Command::Book(args)) => puzzlepress::offline::print_book(&args).await,
        Some(Command::Printrun(args)) => puzzlepress::offline::print_run(&args).await,
        Some(Command::Secret(args)) => {
            println!("{}", puzzlepress::cli::book_secret(&args.database.database_url).await?);
            Ok(())
        }
        Some(Command::Openapi) => {
            print!("{}", puzzlepress::http::openapi::yaml());
            Ok(())
        }
        Some(Command::Keys(args)) => puzzlepress::keys::run(&args).await,
        Some(Command::Dictionary(_) | Command::Wordsearch(_)) => unreachable!("run without a runtime"),
        // Its own exit code and one-line reason, not anyhow's multi-line report.
        Some(Command::Health(args)) => std::process::exit(puzzlepress::probe::run(&args).await),
    }
}
