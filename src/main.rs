use clap::Parser;
use puzzlepress::cli::{Cli, Command};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    puzzlepress::server::init_logging();
    let cli = Cli::parse();
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
        // Its own exit code and one-line reason, not anyhow's multi-line report.
        Some(Command::Health(args)) => std::process::exit(puzzlepress::probe::run(&args).await),
    }
}
