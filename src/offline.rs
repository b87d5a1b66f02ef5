//! `puzzlepress book`: a book printed offline, byte for byte what the server gives for the
//! same secret and serial.

use anyhow::Context;

use crate::cli::{BookArgs, PrintRunArgs};
use crate::puzzles::foxbook::{book_for, BookSpec, Serial};
use crate::puzzles::monitor::Unmonitored;
use crate::render::foxbook::{answer_pdf, book_pdf};
use crate::render::printrun::{copy_files, CSV_HEADER};

pub async fn print_book(args: &BookArgs) -> anyhow::Result<()> {
    let serial =
        Serial::parse(&args.serial).map_err(|e| anyhow::anyhow!("--serial {:?}: {e}", args.serial))?.to_string();
    let spec = BookSpec { pages: args.pages, rows: args.rows, cols: args.cols };
    let opts = args.print.options(spec)?;
    let secret = crate::cli::book_secret(&args.database.database_url).await?;
    let book = book_for(secret.as_bytes(), &serial, spec, &mut Unmonitored)?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let files: [(&str, Vec<u8>); 4] = [
        ("book.txt", book.text().into_bytes()),
        ("book.pdf", book_pdf(&book, &serial, &opts)),
        ("answer.pdf", answer_pdf(&book, &serial, &opts)),
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

/// `puzzlepress printrun`: copies printed on `--threads` threads, each a book with a fresh
/// random serial, written as DIR/SERIAL/… with the manifest in copy order.
pub async fn print_run(args: &PrintRunArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        (1..=crate::jobs::printruns::MAX_COPIES).contains(&args.copies),
        "--copies must be 1..{}",
        crate::jobs::printruns::MAX_COPIES
    );
    let spec = BookSpec { pages: args.pages, rows: args.rows, cols: args.cols };
    spec.validate().map_err(|e| anyhow::anyhow!("{e}"))?;
    let opts = args.print.options(spec)?;
    let secret = crate::cli::book_secret(&args.database.database_url).await?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let serials: Vec<String> = (0..args.copies).map(|_| Serial::from_bits(rand::random::<u64>()).to_string()).collect();
    let started = std::time::Instant::now();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let lines = std::sync::Mutex::new(vec![String::new(); serials.len()]);
    std::thread::scope(|scope| -> anyhow::Result<()> {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| -> anyhow::Result<()> {
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(serial) = serials.get(i) else { return Ok(()) };
                        let book = book_for(secret.as_bytes(), serial, spec, &mut Unmonitored)?;
                        let (files, line) = copy_files(&book, serial, &opts, args.paper);
                        std::fs::create_dir_all(args.out.join(serial))?;
                        for (name, bytes) in files {
                            let path = args.out.join(name);
                            std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
                        }
                        lines.lock().map_err(|_| anyhow::anyhow!("a printing thread panicked"))?[i] = line.csv();
                    }
                })
            })
            .collect();
        for worker in workers {
            worker.join().map_err(|_| anyhow::anyhow!("a printing thread panicked"))??;
        }
        Ok(())
    })?;
    let lines = lines.into_inner().map_err(|_| anyhow::anyhow!("a printing thread panicked"))?;
    let manifest: String = std::iter::once(CSV_HEADER.to_string()).chain(lines).collect();
    std::fs::write(args.out.join("manifest.csv"), manifest)?;
    println!(
        "{} copies of {} pages in {}: {:.1} s on {threads} threads",
        args.copies,
        spec.pages,
        args.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
