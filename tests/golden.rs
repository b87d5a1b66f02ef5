//! Golden files: every file of every product keeps its bytes. A product is printed again
//! from its stored record at each download, so a rendering change would silently change
//! books already sold. `tests/golden/products.db` is a SQLite database holding one product
//! of each kind, made by the server at fixed requests, seeds and book secret; the server of
//! today must serve each of their files (listed with their SHA-256 in
//! `tests/golden/files.txt`) byte for byte. Each run writes the files it got to
//! `target/golden/` for comparing. A deliberate change of a layout gets a new layout
//! version, old products keeping their bytes: its products are added to the fixture
//! (`GOLDEN_ADD=1 cargo test --release --features test-jobs --test golden` makes the
//! products whose files are not listed yet, in the fixture as it is), so that every
//! version stays served as it was. `GOLDEN_UPDATE=1` makes both files anew (every product
//! at today's versions).

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::{wait_job, Server, TestDb};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// One product: what is posted, and the files then downloaded from its location (a
/// suffix, with any query).
struct Product {
    name: &'static str,
    path: &'static str,
    body: Value,
    files: &'static [&'static str],
    /// Whether the fixture drops the files the job kept (a dictionary from before its PDF
    /// was kept is set again at each download).
    unkept: bool,
}

fn products() -> Vec<Product> {
    let pattern = json!(["...#...", ".......", ".......", ".......", "...#..."]);
    let birds = json!({"title": "Birds", "author": "A. Author", "copyright": "© 2026 A. Author",
        "pool": ["robin", "wren", "owl", "crow", "magpie", "sparrow", "finch", "heron", "swan", "eagle", "hawk", "jay"],
        "count": 3, "words_per_puzzle": 6, "rows": 10, "cols": 10, "seed": 2});
    let one_up = json!({"title": "One Up", "levels": {"easy": 3, "medium": 2}, "size": 6, "seed": 3, "trim": "6x9"});
    let fox_hunt = json!({"pages": 4, "rows": 10, "cols": 12, "trim": "6x9", "title": "Fox Hunt",
        "lookup_url": "https://example.com/find", "author": "A. Author",
        "copyright": "© 2026 A. Author", "isbn": "978-0-306-40615-7"});
    let run_fox = json!({"copies": 2, "pages": 3, "rows": 8, "cols": 9, "trim": "6x9", "title": "Run Fox",
        "lookup_url": "https://example.com/fox", "paper": "cream"});
    vec![
        Product {
            name: "foxbook",
            path: "/books",
            body: fox_hunt.clone(),
            files: &["/book.pdf", "/answer.pdf", "/cover.pdf", "/cover.pdf?paper=white"],
            unkept: false,
        },
        Product {
            name: "wordbook",
            path: "/books",
            body: json!({"word": "cat", "letters": "CATS", "shape": "heart", "pages": 3, "rows": 14, "cols": 14}),
            files: &["/book.pdf", "/answer.pdf", "/cover.pdf"],
            unkept: false,
        },
        Product {
            name: "printrun",
            path: "/printruns",
            body: run_fox.clone(),
            files: &["/archive.zip", "/manifest.csv", "/manifest.json"],
            unkept: false,
        },
        Product {
            name: "wordsearch-book",
            path: "/wordsearches/books",
            body: birds.clone(),
            files: &["/book.pdf", "/cover.pdf"],
            unkept: false,
        },
        Product {
            name: "wordsearch-book-large",
            path: "/wordsearches/books",
            body: json!({"large_print": true, "trim": "letter",
                "puzzles": [{"title": "Pets", "words": ["cat", "dog", "emu", "hamster"]}], "seed": 4}),
            files: &["/book.pdf"],
            unkept: false,
        },
        Product {
            name: "oneup-puzzle",
            path: "/oneup/puzzles",
            body: json!({"size": 6, "seed": 42}),
            files: &["/puzzle.pdf", "/solution.pdf", "/puzzle.pdf?trim=6x9"],
            unkept: false,
        },
        Product {
            name: "oneup-book",
            path: "/oneup/books",
            body: one_up.clone(),
            files: &["/book.pdf"],
            unkept: false,
        },
        // Layout version 3: the book frame.
        Product {
            name: "wordsearch-book-framed",
            path: "/wordsearches/books",
            body: with(&birds, json!({"isbn": "978-0-306-40615-7"})),
            files: &["/book.pdf", "/cover.pdf"],
            unkept: false,
        },
        Product {
            name: "oneup-book-framed",
            path: "/oneup/books",
            body: with(&one_up, json!({"author": "A. Author", "copyright": "© 2026 A. Author"})),
            files: &["/book.pdf", "/cover.pdf", "/cover.pdf?paper=cream"],
            unkept: false,
        },
        // Find the Fox interior version 4: the book frame.
        Product {
            name: "foxbook-framed",
            path: "/books",
            body: fox_hunt,
            files: &["/book.pdf", "/answer.pdf", "/cover.pdf", "/cover.pdf?paper=cream", "/cover.pdf?palette=forest"],
            unkept: false,
        },
        Product {
            name: "printrun-framed",
            path: "/printruns",
            body: run_fox,
            files: &["/archive.zip", "/manifest.csv", "/manifest.json"],
            unkept: false,
        },
        // Layout version 4: covers with artwork, dictionaries padded with notes pages.
        Product {
            name: "wordsearch-book-art",
            path: "/wordsearches/books",
            body: with(&birds, json!({"isbn": "978-0-306-40615-7", "seed": 5})),
            files: &["/book.pdf", "/cover.pdf", "/cover.pdf?palette=sand"],
            unkept: false,
        },
        Product {
            name: "oneup-book-art",
            path: "/oneup/books",
            body: with(&one_up, json!({"author": "A. Author", "seed": 4})),
            files: &["/book.pdf", "/cover.pdf", "/cover.pdf?paper=cream&palette=fox"],
            unkept: false,
        },
        Product {
            name: "crossword",
            path: "/crosswords/fills",
            body: json!({"pattern": pattern, "seed": 3, "title": "Café “Special”", "author": "Ann Author",
                "copyright": "© 2026 Ann Author", "notes": "Two lines\nof notes",
                "clues": {"1A": "First across", "4A": "Fourth – across", "7A": "A clue with ‘quotes’",
                    "9A": "Ninth", "11A": "Eleventh", "12A": "Twelfth", "1D": "Down one", "3D": "Down three"}}),
            files: &["/grid.pdf", "/solution.pdf", "/puzzle.puz", "/puzzle.ipuz", "/grid.pdf?trim=6x9"],
            unkept: false,
        },
        Product {
            name: "dictionary",
            path: "/dictionaries",
            body: json!({"title": "Glossary", "author": "Me", "preface": ["Words the puzzles use, in a longer preface that \
                must break over several lines of the page to show how the paragraph is set."], "trim": "6x9",
                "entries": dictionary_entries()}),
            files: &["/book.pdf"],
            unkept: false,
        },
        Product {
            name: "dictionary-unkept",
            path: "/dictionaries",
            body: json!({"title": "Lexicon", "trim": "5.5x8.5", "entries": dictionary_entries()}),
            files: &["/book.pdf"],
            unkept: true,
        },
    ]
}

/// `body` with `more`'s members added.
fn with(body: &Value, more: Value) -> Value {
    let mut body = body.clone();
    if let (Some(body), Value::Object(more)) = (body.as_object_mut(), more) {
        body.extend(more);
    }
    body
}

/// Enough entries for several pages: accents, several senses, long definitions.
fn dictionary_entries() -> Value {
    let words = ["fox", "den", "vixen", "cub", "earth", "brush", "café", "naïve", "œuvre", "Łódź", "hedge", "warren"];
    let entries: Vec<Value> = (0..120)
        .map(|i| {
            let word =
                format!("{}{}", words[i % words.len()], if i < words.len() { String::new() } else { i.to_string() });
            let definition = "a word defined at length, with enough text in it to run over more than one line \
                              of a narrow column, hyphenating where the typesetter chooses";
            json!({"headword": word, "senses": [
                {"pos": "n.", "definition": format!("{definition} ({i})")},
                {"pos": "v.", "definition": "to do what the noun does"}]})
        })
        .collect();
    Value::Array(entries)
}

const SECRET: &str = "golden-secret";

/// Flags that keep every product of the fixture whatever its age.
const FLAGS: [&str; 4] = ["--workers", "2", "--retention-days", "1000000"];

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name)
}

async fn download(server: &Server, path: &str) -> Vec<u8> {
    let response = common::client().get(server.url(path)).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200, "GET {path}");
    response.bytes().await.unwrap().to_vec()
}

/// The name a product's file is listed and written under.
fn file_name(product: &str, file: &str) -> String {
    format!("{product}{}", file.replace(['/', '?', '='], "-"))
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Makes the fixture: every product ordered from a fresh server on `db_url`, and the
/// listing of its files (`name path sha256 length` lines).
async fn make_fixture(db_url: &str, listed: &str) -> String {
    let mut server = Server::start_with_env(db_url, &FLAGS, &[("PUZZLEPRESS_SECRET", SECRET)]);
    let mut listing = String::new();
    let mut unkept = Vec::new();
    let names: Vec<&str> = listed.lines().filter_map(|l| l.split(' ').next()).collect();
    let unlisted = |p: &Product| !p.files.iter().all(|f| names.contains(&file_name(p.name, f).as_str()));
    for product in products().into_iter().filter(unlisted) {
        let response = common::client()
            .post(server.url(product.path))
            .header("Idempotency-Key", format!("golden-{}", product.name))
            .json(&product.body)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        let location = response.headers().get("location").map(|l| l.to_str().unwrap().to_string());
        let body: Value = response.json().await.unwrap();
        assert_eq!(status, 202, "POST {} ({}): {body}", product.path, product.name);
        let location = location.expect("a Location");
        let job = body["job"].as_str().map_or(location.clone(), str::to_string);
        let done = wait_job(&server, &job, Duration::from_secs(120)).await;
        assert_eq!(done["state"], "succeeded", "{}: {done}", product.name);
        if product.unkept {
            unkept.push(done["id"].as_str().expect("a job id").to_string());
        }
        for file in product.files {
            let path = format!("{location}{file}");
            let bytes = download(&server, &path).await;
            let name = file_name(product.name, file);
            listing.push_str(&format!("{name} {path} {} {}\n", sha256(&bytes), bytes.len()));
        }
    }
    // Stopped cleanly, the server's last connection folds the write-ahead log into the file.
    assert!(server.terminate().success());
    let pool = sqlx::SqlitePool::connect(db_url).await.unwrap();
    for job in unkept {
        let gone = sqlx::query("DELETE FROM files WHERE job_id = ?").bind(&job).execute(&pool).await.unwrap();
        assert!(gone.rows_affected() > 0, "job {job} kept a file");
    }
    pool.close().await;
    listing
}

#[tokio::test(flavor = "multi_thread")]
async fn every_products_files_keep_their_bytes() {
    if std::env::var_os("GOLDEN_UPDATE").is_some() {
        let _ = std::fs::remove_file(golden("products.db"));
        let url = format!("sqlite://{}", golden("products.db").display());
        let listing = make_fixture(&url, "").await;
        std::fs::write(golden("files.txt"), listing).unwrap();
        assert!(!golden("products.db-wal").exists(), "the fixture is one file");
    } else if std::env::var_os("GOLDEN_ADD").is_some() {
        let url = format!("sqlite://{}", golden("products.db").display());
        let listed = std::fs::read_to_string(golden("files.txt")).unwrap();
        let added = make_fixture(&url, &listed).await;
        std::fs::write(golden("files.txt"), listed + &added).unwrap();
        assert!(!golden("products.db-wal").exists(), "the fixture is one file");
    }
    // A copy: the server migrates the database it is given, and the fixture stays as made.
    let db = TestDb::sqlite();
    let path = db.url.strip_prefix("sqlite://").unwrap();
    std::fs::copy(golden("products.db"), path).unwrap();
    let server = Server::start_with_env(&db.url, &FLAGS, &[("PUZZLEPRESS_SECRET", SECRET)]);
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/golden");
    std::fs::create_dir_all(&out).unwrap();
    let listing = std::fs::read_to_string(golden("files.txt")).unwrap();
    let mut changed = Vec::new();
    for line in listing.lines() {
        let [name, path, sha, _] = line.split(' ').collect::<Vec<_>>()[..] else { panic!("a bad line: {line}") };
        let bytes = download(&server, path).await;
        std::fs::write(out.join(name), &bytes).unwrap();
        if sha256(&bytes) != sha {
            changed.push(format!("{name} ({path}): {sha} -> {}", sha256(&bytes)));
        }
    }
    assert!(changed.is_empty(), "files changed their bytes (see target/golden/):\n{}", changed.join("\n"));
}
