//! `puzzlepress book`: a book printed offline, byte for byte what the server gives for the
//! same secret and serial.

use std::io::Write;

use anyhow::Context;

use crate::cli::{BookArgs, DictionaryArgs, PrintRunArgs, WordSearchArgs};
use crate::jobs::printruns::PrintRunOrder;
use crate::puzzles::foxbook::Serial;
use crate::puzzles::monitor::Unmonitored;
use crate::puzzles::wordbook::{book_for, book_for_version, Plan, WordSpec};
use crate::render::layouts::cover::{cover, Paper};
use crate::render::layouts::foxbook::{answer_pdf, book_pdf, InteriorVersion};
use crate::render::layouts::printrun::{copy_files, ManifestLine, CSV_HEADER};
use crate::render::print::PrintOptions;
use crate::service::books::AnswerView;
use crate::service::printruns::Archive;
use crate::store::{BookRecord, Store};

pub async fn print_book(args: &BookArgs) -> anyhow::Result<()> {
    let serial =
        Serial::parse(&args.serial).map_err(|e| anyhow::anyhow!("--serial {:?}: {e}", args.serial))?.to_string();
    let spec = args.book.spec()?;
    let opts = args.print.options(&spec)?;
    let plan = spec.validate()?;
    let secret = crate::cli::book_secret(&args.database.database_url).await?;
    // A book the database knows is made as the server made it (its generator and interior
    // versions, its trim, title, lookup address and imprint), and must come out the same: else the
    // options or the secret differ from the order's, and nothing is written.
    let known = printed_record(&args.database.database_url, &serial).await;
    let (version, interior, opts) = match &known {
        Some(record) => {
            let interior = crate::service::books::interior_version(record)?;
            let stored = crate::service::books::print_options(record);
            if stored != opts {
                println!(
                    "book {serial} is in {}: printed as it was ordered (trim {:?}, title {:?}, lookup address {:?}, \
                     author {:?}, copyright {:?}, ISBN {:?})",
                    args.database.database_url,
                    record.order.trim,
                    stored.title,
                    stored.lookup_url,
                    stored.imprint.author,
                    stored.imprint.copyright,
                    stored.imprint.isbn
                );
            }
            (record.order.generator_version as u32, interior, stored)
        }
        None => (plan.generator_version(), InteriorVersion::CURRENT, opts),
    };
    let book = book_for_version(secret.as_bytes(), &serial, &plan, version, &mut Unmonitored)?.book;
    if let Some(record) = &known {
        if record.content_hash.as_deref() != Some(book.content_hash_hex().as_str()) {
            anyhow::bail!("{}", mismatch(record, &plan)?);
        }
    }
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let files: [(&str, Vec<u8>); 5] = [
        ("book.txt", book.text().into_bytes()),
        ("book.pdf", book_pdf(&book, &serial, &opts, interior)),
        ("cover.pdf", cover(&book, &serial, &opts, args.paper, interior, args.palette).pdf()),
        ("answer.pdf", answer_pdf(&book, &serial, &opts, interior)),
        ("answer.json", serde_json::to_vec(&AnswerView::new(book.answer.clone(), interior))?),
    ];
    for (name, bytes) in files {
        write_file(&args.out.join(name), &bytes)?;
    }
    println!(
        "book {serial}: {} pages, {} on page {}, sha256 {}",
        spec.pages,
        book.answer.word,
        book.answer.page,
        book.content_hash_hex()
    );
    Ok(())
}

/// The database's record of `serial` once printed; None when it knows no such book (or is
/// not a database `serve` ran on).
async fn printed_record(database_url: &str, serial: &str) -> Option<BookRecord> {
    let store = Store::connect(database_url).await.ok()?;
    let record = store.book(serial, false).await.ok().flatten();
    store.close().await;
    record.filter(|r| r.content_hash.is_some())
}

/// Why this run's book differs from the stored one: the options, or else the secret.
fn mismatch(record: &BookRecord, plan: &Plan) -> anyhow::Result<String> {
    let ordered = crate::service::books::plan_of(record)?;
    let (serial, order) = (&record.serial, &record.order);
    Ok(if &ordered != plan {
        format!(
            "book {serial} was ordered as {} pages of {} x {}, the word {:?} on the letters {:?}, shape {}; these \
             options make another book: give the same ones (nothing was written)",
            order.pages, order.rows, order.cols, order.word, order.letters, order.shape
        )
    } else {
        format!(
            "book {serial} comes out differently with this secret than the server made it: the secret is not the one \
             its book was made with (nothing was written)"
        )
    })
}

/// `puzzlepress printrun`: copies printed on `--threads` threads, each a book with a fresh
/// random serial, written as DIR/SERIAL/… (or as the archive's ZIP, `--zip FILE`, `-` for
/// standard output) with the manifest in copy order. Copies are rendered a batch at a time
/// and written in order, so memory stays bounded whatever the run's size.
pub async fn print_run(args: &PrintRunArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        (1..=crate::jobs::printruns::MAX_COPIES).contains(&args.copies),
        "--copies must be 1..{}",
        crate::jobs::printruns::MAX_COPIES
    );
    anyhow::ensure!(args.out.is_some() != args.zip.is_some(), "give either --out DIR or --zip FILE");
    anyhow::ensure!(
        args.print.lookup_url.is_some(),
        "--lookup-url is required: the address where readers look their copy's answer up, printed with every \
         serial and as a QR code (the server's public find page, e.g. https://books.example.com/; '' prints none)"
    );
    let spec = args.book.spec()?;
    let opts = args.print.options(&spec)?;
    let plan = spec.validate()?;
    let secret = crate::cli::book_secret(&args.database.database_url).await?;
    let mut sink = match (&args.out, &args.zip) {
        (Some(dir), _) => {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            Sink::Dir(dir.clone(), String::from(CSV_HEADER))
        }
        (None, Some(path)) if path.as_os_str() == "-" => {
            Sink::Zip(Box::new(std::io::stdout().lock()), Archive::default())
        }
        (None, Some(path)) => {
            let file = std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
            Sink::Zip(Box::new(std::io::BufWriter::new(file)), Archive::default())
        }
        (None, None) => unreachable!("checked above"),
    };
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let serials: Vec<String> = (0..args.copies).map(|_| Serial::from_bits(rand::random::<u64>()).to_string()).collect();
    let started = std::time::Instant::now();
    for batch in serials.chunks(threads * 4) {
        for (files, line) in render_batch(secret.as_bytes(), batch, &plan, &opts, args.paper, threads)? {
            sink.write(files, &line)?;
        }
    }
    let order = registration(args, spec.clone(), opts, serials);
    sink.finish(&serde_json::to_vec_pretty(&order)?)?;
    eprintln!(
        "{} copies of {} pages: {:.1} s on {threads} threads",
        args.copies,
        spec.pages,
        started.elapsed().as_secs_f64()
    );
    eprintln!(
        "No server knows these serials yet: until the run is registered, readers looking their serial up are told \
         there is no such book. Register it with the server whose secret printed it (the same books are made again):\n  \
         curl -X POST https://YOUR-SERVER/printruns -H 'Authorization: Bearer KEY' -H 'Content-Type: application/json' \
         --data @printrun.json\n(printrun.json is in {})",
        args.out.as_ref().or(args.zip.as_ref()).map_or_else(String::new, |p| p.display().to_string())
    );
    Ok(())
}

/// The order that registers this run with a server: the copies as printed, with their
/// serials (`POST /printruns` makes the same books for them).
fn registration(args: &PrintRunArgs, spec: WordSpec, opts: PrintOptions, serials: Vec<String>) -> PrintRunOrder {
    let order = PrintRunOrder {
        copies: args.copies,
        word: None,
        letters: None,
        shape: None,
        pages: None,
        rows: None,
        cols: None,
        trim: opts.trim,
        title: None,
        lookup_url: None,
        paper: args.paper,
        author: None,
        copyright: None,
        isbn: None,
        serials: Some(serials),
    };
    order.resolved(spec, opts)
}

type CopyFiles = (Vec<(String, Vec<u8>)>, ManifestLine);

/// Each copy of `serials` sampled and rendered, on up to `threads` threads, in order.
fn render_batch(
    secret: &[u8],
    serials: &[String],
    plan: &Plan,
    opts: &PrintOptions,
    paper: Paper,
    threads: usize,
) -> anyhow::Result<Vec<CopyFiles>> {
    let per_thread = serials.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let workers: Vec<_> = serials
            .chunks(per_thread)
            .map(|chunk| {
                scope.spawn(move || -> anyhow::Result<Vec<CopyFiles>> {
                    chunk
                        .iter()
                        .map(|serial| {
                            let book = book_for(secret, serial, plan, &mut Unmonitored)?.book;
                            Ok(copy_files(&book, serial, opts, paper, InteriorVersion::CURRENT))
                        })
                        .collect()
                })
            })
            .collect();
        let mut out = Vec::with_capacity(serials.len());
        for worker in workers {
            out.extend(worker.join().map_err(|_| anyhow::anyhow!("a printing thread panicked"))??);
        }
        Ok(out)
    })
}

/// Where a print run's files go: a directory (with its manifest so far), or the run's
/// archive written as it is made.
enum Sink {
    Dir(std::path::PathBuf, String),
    Zip(Box<dyn std::io::Write>, Archive),
}

impl Sink {
    fn write(&mut self, files: Vec<(String, Vec<u8>)>, line: &ManifestLine) -> anyhow::Result<()> {
        match self {
            Sink::Dir(dir, manifest) => {
                for (name, bytes) in files {
                    let path = dir.join(&name);
                    if let Some(parent) = path.parent() {
                        std::fs::create_dir_all(parent)?;
                    }
                    write_file(&path, &bytes)?;
                }
                manifest.push_str(&line.csv());
            }
            Sink::Zip(out, archive) => out.write_all(&archive.copy(&files, line))?,
        }
        Ok(())
    }

    /// Writes the manifest and `order`, the run's registration.
    fn finish(self, order: &[u8]) -> anyhow::Result<()> {
        match self {
            Sink::Dir(dir, manifest) => {
                std::fs::write(dir.join("manifest.csv"), manifest)?;
                std::fs::write(dir.join("printrun.json"), order)?;
            }
            Sink::Zip(mut out, archive) => {
                out.write_all(&archive.finish(&[("printrun.json", order)]))?;
                out.flush()?;
            }
        }
        Ok(())
    }
}

/// `bytes` written to `path`, over what it held: in place, then cut to their length.
/// Truncating the file to nothing first (as `fs::write` does) frees its pages only for new
/// ones to be allocated, and makes ext4 write the file out at close (its `auto_da_alloc`,
/// for files rewritten so): a third of a millisecond for a dictionary's PDF, against a
/// tenth. Anything that is not a regular file (a pipe, /dev/stdout) is only written to.
fn write_file(path: &std::path::Path, bytes: &[u8]) -> anyhow::Result<()> {
    let context = || format!("writing {}", path.display());
    let mut file =
        std::fs::OpenOptions::new().write(true).create(true).truncate(false).open(path).with_context(context)?;
    file.write_all(bytes).with_context(context)?;
    if file.metadata().with_context(context)?.is_file() {
        file.set_len(bytes.len() as u64).with_context(context)?;
    }
    Ok(())
}

/// `puzzlepress dictionary`: the entries file typeset as a PDF. A line that cannot be read
/// or set is named by its number.
pub fn dictionary(args: &DictionaryArgs) -> anyhow::Result<()> {
    use crate::parallel::start_threads;
    use crate::render::typeset::{parse_lines_in_parallel, Book, Heads, Language};
    start_threads();
    let read =
        |path: &std::path::Path| std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()));
    let bytes =
        crate::memory::read_file(&args.entries).with_context(|| format!("reading {}", args.entries.display()))?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        let line = 1 + bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count();
        anyhow::anyhow!("{}: line {line}: not UTF-8 text", args.entries.display())
    })?;
    let entries = parse_lines_in_parallel(text).map_err(|e| anyhow::anyhow!("{}: {e}", args.entries.display()))?;
    let preface = match &args.preface {
        Some(path) => read(path)?
            .split("\n\n")
            .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|p| !p.is_empty())
            .collect(),
        None => Vec::new(),
    };
    let language = Language::from_code(&args.language)
        .ok_or_else(|| anyhow::anyhow!("--language {:?}: no hyphenation patterns for it", args.language))?;
    let trim = crate::render::print::Trim::parse(&args.trim).map_err(|e| anyhow::anyhow!("--trim: {e}"))?;
    let isbn = crate::render::print::isbn::Isbn::normalised(args.isbn.as_deref())
        .map_err(|e| anyhow::anyhow!("--isbn: {e}"))?;
    let copyright = args.copyright.as_deref().map(str::trim).filter(|c| !c.is_empty()).map(str::to_string);
    let book =
        Book { title: args.title.clone(), author: args.author.clone(), copyright, isbn, preface, entries, language };
    let heads = if args.both_heads { Heads::Both } else { Heads::Outer };
    // Entries were checked line by line; the title, author and preface are checked here.
    book.check_front().map_err(|(field, detail)| anyhow::anyhow!("--{field}: {detail}"))?;
    let (pdf, layout) = crate::render::layouts::dictionary::pdf(
        &book,
        trim,
        heads,
        crate::render::print::LayoutVersion::CURRENT,
        &mut crate::puzzles::monitor::Unmonitored,
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let report = &layout.report;
    write_file(&args.out, &pdf)?;
    println!(
        "{}: {} entries, {} pages, {} lines ({} underfull, {} overfull, {} hyphenated)",
        args.out.display(),
        report.entries,
        report.pages,
        report.lines,
        report.underfull,
        report.overfull,
        report.hyphens
    );
    // The command ends next (`exit_now`): the kernel takes the entries, the layout and the
    // PDF back at once with the rest of the process (freeing them piece by piece, most
    // from the threads that made them, took a millisecond of CPU).
    std::mem::forget((book, layout, pdf, bytes));
    Ok(())
}

/// `puzzlepress wordsearch`: a book of word searches made as the server makes it.
pub fn wordsearch(args: &WordSearchArgs) -> anyhow::Result<()> {
    use crate::jobs::kinds::wordsearch::{parse_lists, WordSearchBookRequest};
    let text = std::fs::read_to_string(&args.lists).with_context(|| format!("reading {}", args.lists.display()))?;
    let mut req: WordSearchBookRequest = if text.trim_start().starts_with('{') {
        serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", args.lists.display()))?
    } else {
        let level = serde_json::from_value(serde_json::Value::String(args.level.clone()))
            .map_err(|_| anyhow::anyhow!("--level {:?}: easy, medium, hard or expert", args.level))?;
        WordSearchBookRequest {
            title: args.title.clone(),
            trim: crate::render::print::Trim::parse(&args.trim).map_err(|e| anyhow::anyhow!("--trim: {e}"))?,
            large_print: args.large_print,
            level,
            rows: args.rows,
            cols: args.cols,
            puzzles: parse_lists(&text).map_err(|(line, e)| anyhow::anyhow!("{}:{line}: {e}", args.lists.display()))?,
            ..WordSearchBookRequest::default()
        }
    };
    // As the server does: a seed given wins, else one is drawn, and it is kept.
    if req.seed.is_none() {
        req.seed = Some(args.seed.unwrap_or_else(|| rand::random::<u64>() >> 11));
    }
    let paper =
        crate::render::layouts::cover::Paper::parse(&args.paper).map_err(|e| anyhow::anyhow!("--paper: {e}"))?;
    // Checked as the server checks a request: the print options, then the puzzles. Each
    // refusal's detail names its field (a member of the request, or the flag that set it).
    let refused = |(_, detail): (String, String)| anyhow::anyhow!(detail);
    req.print_options().map_err(refused)?;
    req.plan().map_err(refused)?;
    let book = req
        .make(&crate::puzzles::wordsearch::cost::Limits::UNLIMITED, &mut crate::puzzles::monitor::Unmonitored)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let layout = crate::render::print::LayoutVersion::CURRENT;
    let pdf = req.book_pdf(&book, layout).map_err(refused)?;
    let cover = req.cover(&book, paper, args.palette, layout).map_err(refused)?.pdf();
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let write = |name: &str, bytes: &[u8]| write_file(&args.out.join(name), bytes);
    write("book.pdf", &pdf)?;
    write("cover.pdf", &cover)?;
    write("puzzles.json", &serde_json::to_vec_pretty(&book.puzzles)?)?;
    write("request.json", &serde_json::to_vec_pretty(&req)?)?;
    println!(
        "{}: {} puzzles, {} pages, book {}, seed {}",
        args.out.display(),
        book.puzzles.len(),
        book.pages,
        book.code,
        book.seed
    );
    Ok(())
}
