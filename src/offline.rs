//! `puzzlepress book`: a book printed offline, byte for byte what the server gives for the
//! same secret and serial.

use anyhow::Context;

use crate::cli::BookArgs;
use crate::puzzles::foxbook::{book_for, BookSpec, Serial};
use crate::puzzles::monitor::Unmonitored;
use crate::render::foxbook::{answer_pdf, book_pdf};

pub async fn print_book(args: &BookArgs) -> anyhow::Result<()> {
    let serial =
        Serial::parse(&args.serial).map_err(|e| anyhow::anyhow!("--serial {:?}: {e}", args.serial))?.to_string();
    let spec = BookSpec { pages: args.pages, rows: args.rows, cols: args.cols };
    let secret = crate::cli::book_secret(&args.database.database_url).await?;
    let book = book_for(secret.as_bytes(), &serial, spec, &mut Unmonitored)?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let files: [(&str, Vec<u8>); 4] = [
        ("book.txt", book.text().into_bytes()),
        ("book.pdf", book_pdf(&book, &serial)),
        ("answer.pdf", answer_pdf(&book, &serial)),
        ("answer.json", serde_json::to_vec(&book.answer)?),
    ];
    for (name, bytes) in files {
        let path = args.out.join(name);
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
    }
    println!(
        "book {serial}: {} pages, fox on page {}, sha256 {}",
        spec.pages,
        book.answer.page,
        book.content_hash_hex()
    );
    Ok(())
}
