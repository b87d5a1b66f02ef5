//! Books are a pure function of (secret, serial, shape): the offline CLI prints, byte for
//! byte, what the server stores and serves, and a generated secret survives restarts.

mod common;

use std::process::Command;
use std::time::Duration;

use common::{post, wait_job, Server, TestDb};
use serde_json::json;
use sha2::{Digest, Sha256};

async fn bytes(server: &Server, path: &str) -> Vec<u8> {
    let response = common::client().get(server.url(path)).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200, "GET {path}");
    response.bytes().await.unwrap().to_vec()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs `puzzlepress book` and returns the directory it wrote.
fn offline(serial: &str, secret: &str, pages: u32, rows: u32, cols: u32, print: &[&str]) -> std::path::PathBuf {
    let out = std::env::temp_dir().join(format!("pp-book-{}", uuid::Uuid::new_v4().simple()));
    let status = Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
        .args(["book", "--serial", serial, "--out"])
        .arg(&out)
        .args(["--pages", &pages.to_string(), "--rows", &rows.to_string(), "--cols", &cols.to_string()])
        .args(print)
        .env("PUZZLEPRESS_SECRET", secret)
        .env_remove("PUZZLEPRESS_SECRET_FILE")
        .status()
        .unwrap();
    assert!(status.success());
    out
}

async fn order(server: &Server, body: serde_json::Value) -> (String, serde_json::Value) {
    let (status, _, order) = post(server, "/books", body).await;
    assert_eq!(status, 202, "{order}");
    let job = wait_job(server, order["job"].as_str().unwrap(), Duration::from_secs(60)).await;
    assert_eq!(job["state"], "succeeded", "{job}");
    let serial = order["serial"].as_str().unwrap().to_string();
    let (_, book) = common::get(server, &format!("/books/{serial}")).await;
    (serial, book)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_offline_cli_prints_what_the_server_serves() {
    for db in TestDb::both() {
        let server = Server::start_with_env(&db.url, &["--workers", "2"], &[("PUZZLEPRESS_SECRET", "cli-test-secret")]);
        let print = json!({"trim": "6x9", "title": "Fox Hunt", "lookup_url": "https://example.com/find"});
        let (serial, book) =
            order(&server, json!({"pages": 12, "rows": 10, "cols": 14, "trim": "6x9", "title": "Fox Hunt", "lookup_url": "https://example.com/find"})).await;
        for key in ["trim", "title", "lookup_url"] {
            assert_eq!(book[key], print[key], "{key} is stored with the book");
        }
        let options = ["--trim", "6x9", "--title", "Fox Hunt", "--lookup-url", "https://example.com/find"];
        let dir = offline(&serial.to_lowercase(), "cli-test-secret", 12, 10, 14, &options);

        let text = std::fs::read(dir.join("book.txt")).unwrap();
        assert_eq!(hex(&Sha256::digest(&text)), book["content_hash"], "book.txt is the stored book");
        let mut served_text = Vec::new();
        for n in 1..=12 {
            let response = common::client()
                .get(server.url(&format!("/books/{serial}/pages/{n}")))
                .header("accept", "text/plain")
                .send()
                .await
                .unwrap();
            if n > 1 {
                served_text.push(b'\n');
            }
            served_text.extend(response.bytes().await.unwrap());
        }
        assert_eq!(served_text, text, "pages served as text make up book.txt");
        assert_eq!(
            bytes(&server, &format!("/books/{serial}/book.pdf")).await,
            std::fs::read(dir.join("book.pdf")).unwrap()
        );
        assert_eq!(
            bytes(&server, &format!("/books/{serial}/answer.pdf")).await,
            std::fs::read(dir.join("answer.pdf")).unwrap()
        );
        assert_eq!(
            bytes(&server, &format!("/books/{serial}/cover.pdf?paper=white")).await,
            std::fs::read(dir.join("cover.pdf")).unwrap(),
            "cover.pdf on white paper, the default"
        );
        assert_eq!(
            bytes(&server, &format!("/books/{serial}/answer")).await,
            std::fs::read(dir.join("answer.json")).unwrap()
        );
        std::fs::remove_dir_all(dir).unwrap();

        // Another secret gives another book for the same serial.
        let other = offline(&serial, "another-secret", 12, 10, 14, &[]);
        assert_ne!(std::fs::read(other.join("book.txt")).unwrap(), text);
        std::fs::remove_dir_all(other).unwrap();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn word_books_on_shaped_pages_offline_are_what_the_server_serves() {
    let mask_file = std::env::temp_dir().join(format!("pp-mask-{}.txt", uuid::Uuid::new_v4().simple()));
    let mask = [".........", "...###...", "..#####..", "...###...", ".........", "........."];
    std::fs::write(&mask_file, mask.join("\n")).unwrap();
    for db in TestDb::both() {
        let server = Server::start_with_env(&db.url, &["--workers", "2"], &[("PUZZLEPRESS_SECRET", "word-secret")]);
        let orders = [
            (
                json!({"word": "cat", "letters": "cats", "shape": "heart", "pages": 6, "rows": 16, "cols": 16}),
                vec!["--word", "cat", "--letters", "CATS", "--shape", "heart"],
                (6, 16, 16),
            ),
            (
                json!({"word": "DAD", "shape": mask, "pages": 5}),
                vec!["--word", "DAD", "--shape", mask_file.to_str().unwrap()],
                (5, 6, 9),
            ),
        ];
        for (body, flags, (pages, rows, cols)) in orders {
            let (serial, book) = order(&server, body.clone()).await;
            assert_eq!(book["word"], body["word"].as_str().unwrap().to_uppercase(), "{book}");
            assert_eq!((book["rows"].as_u64(), book["cols"].as_u64()), (Some(rows as u64), Some(cols as u64)));
            let word = book["word"].as_str().unwrap().to_string();
            let title = format!("Find the {}{}", &word[..1], word[1..].to_lowercase());
            assert_eq!(book["title"], title.as_str());
            let lookup = book["lookup_url"].as_str().unwrap().to_string();
            let mut options = flags.clone();
            options.extend(["--lookup-url", &lookup]);
            let dir = offline(&serial, "word-secret", pages, rows, cols, &options);
            let text = std::fs::read(dir.join("book.txt")).unwrap();
            assert_eq!(hex(&Sha256::digest(&text)), book["content_hash"], "book.txt is the stored book");
            let answer: serde_json::Value =
                serde_json::from_slice(&bytes(&server, &format!("/books/{serial}/answer")).await).unwrap();
            assert_eq!(answer["word"], word.as_str());
            assert_eq!(answer["cells"].as_array().unwrap().len(), 3);
            let offline_answer: serde_json::Value =
                serde_json::from_slice(&std::fs::read(dir.join("answer.json")).unwrap()).unwrap();
            assert_eq!(answer, offline_answer);
            // The answer's page served as text: holes are spaces, and the word reads at its cells.
            let page = common::client()
                .get(server.url(&format!("/books/{serial}/pages/{}", answer["page"])))
                .header("accept", "text/plain")
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            let grid: Vec<&[u8]> = page.lines().map(str::as_bytes).collect();
            assert_eq!(grid.len(), rows as usize);
            assert!(grid.iter().any(|row| row.contains(&b' ')), "shaped pages have holes:\n{page}");
            let read: String = answer["cells"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| grid[c[0].as_u64().unwrap() as usize - 1][c[1].as_u64().unwrap() as usize - 1] as char)
                .collect();
            assert_eq!(read, word);
            for file in ["book.pdf", "answer.pdf", "cover.pdf"] {
                let served = bytes(&server, &format!("/books/{serial}/{file}")).await;
                assert_eq!(served, std::fs::read(dir.join(file)).unwrap(), "{file}");
            }
            std::fs::remove_dir_all(dir).unwrap();
        }
    }
    std::fs::remove_file(mask_file).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_generated_secret_is_kept_in_the_database_across_restarts() {
    let db = TestDb::postgres();
    let mut first = Server::start(&db.url, &["--workers", "1"]);
    let (serial, book) = order(&first, json!({"pages": 3, "rows": 6, "cols": 6})).await;
    first.terminate();

    let store = puzzlepress::store::Store::connect(&db.url).await.unwrap();
    let secret = store.setting_or_insert("book_secret", "not-this-one").await.unwrap();
    assert_eq!(secret.len(), 64, "a generated 256-bit secret");
    let dir = offline(&serial, &secret, 3, 6, 6, &[]);
    assert_eq!(hex(&Sha256::digest(std::fs::read(dir.join("book.txt")).unwrap())), book["content_hash"]);
    std::fs::remove_dir_all(dir).unwrap();

    // A second process (a replica, or a restart) derives books from the same secret.
    let second = Server::start(&db.url, &["--workers", "3"]);
    let (serial2, book2) = order(&second, json!({"pages": 3, "rows": 6, "cols": 6})).await;
    let dir = offline(&serial2, &secret, 3, 6, 6, &[]);
    assert_eq!(hex(&Sha256::digest(std::fs::read(dir.join("book.txt")).unwrap())), book2["content_hash"]);
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_secret_file_gives_the_books_of_the_same_secret_and_an_empty_secret_is_refused() {
    let db = TestDb::sqlite();
    let file = std::env::temp_dir().join(format!("pp-secret-{}", uuid::Uuid::new_v4().simple()));
    // As `echo` or an editor writes it: the trailing newline is no part of the secret.
    std::fs::write(&file, "file-test-secret\n").unwrap();
    let server =
        Server::start_with_env(&db.url, &["--workers", "1"], &[("PUZZLEPRESS_SECRET_FILE", file.to_str().unwrap())]);
    let (serial, book) = order(&server, json!({"pages": 3, "rows": 6, "cols": 6})).await;
    let dir = offline(&serial, "file-test-secret", 3, 6, 6, &[]);
    assert_eq!(hex(&Sha256::digest(std::fs::read(dir.join("book.txt")).unwrap())), book["content_hash"]);
    std::fs::remove_dir_all(dir).unwrap();

    // `serve` and `book` refuse an empty secret instead of quietly using another one.
    std::fs::write(&file, "\n").unwrap();
    let out = std::env::temp_dir().join(format!("pp-book-{}", uuid::Uuid::new_v4().simple()));
    let serve = ["serve", "--bind", "127.0.0.1:0", "--database-url", &db.url];
    let book = ["book", "--serial", &serial, "--out", out.to_str().unwrap()];
    for (args, var, value) in [
        (&serve[..], "PUZZLEPRESS_SECRET", ""),
        (&serve[..], "PUZZLEPRESS_SECRET_FILE", file.to_str().unwrap()),
        (&book[..], "PUZZLEPRESS_SECRET", ""),
        (&book[..], "PUZZLEPRESS_SECRET_FILE", file.to_str().unwrap()),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
            .args(args)
            .env_remove("PUZZLEPRESS_SECRET")
            .env_remove("PUZZLEPRESS_SECRET_FILE")
            .env(var, value)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // A `serve` that accepted the secret would run forever: fail instead of hanging.
        let start = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > Duration::from_secs(30) {
                child.kill().unwrap();
                panic!("{args:?} with {var}={value:?} did not exit");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success() && stderr.contains("is empty"), "{args:?} with {var}={value:?}: {stderr}");
    }
    assert!(!out.exists(), "nothing was printed");
    std::fs::remove_file(file).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_offline_cli_reads_the_secret_the_server_generated_from_its_database() {
    let db = TestDb::sqlite();
    // No secret configured: `serve` generates one and keeps it in the database.
    let server = Server::start(&db.url, &["--workers", "1"]);
    // No lookup address: the CLI's default.
    let (serial, book) = order(&server, json!({"pages": 3, "rows": 6, "cols": 6, "lookup_url": ""})).await;
    let cli = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
            .args(args)
            .args(["--database-url", &db.url])
            .env_remove("PUZZLEPRESS_SECRET")
            .env_remove("PUZZLEPRESS_SECRET_FILE")
            .output()
            .unwrap()
    };
    let out = std::env::temp_dir().join(format!("pp-book-{}", uuid::Uuid::new_v4().simple()));
    let printed = cli(&[
        "book",
        "--serial",
        &serial,
        "--pages",
        "3",
        "--rows",
        "6",
        "--cols",
        "6",
        "--lookup-url",
        "",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(printed.status.success(), "{}", String::from_utf8_lossy(&printed.stderr));
    assert_eq!(hex(&Sha256::digest(std::fs::read(out.join("book.txt")).unwrap())), book["content_hash"]);
    assert_eq!(
        std::fs::read(out.join("book.pdf")).unwrap(),
        bytes(&server, &format!("/books/{serial}/book.pdf")).await
    );
    std::fs::remove_dir_all(out).unwrap();

    // `secret show` prints it for an operator: with it, `book` needs no database.
    let shown = cli(&["secret", "show"]);
    assert!(shown.status.success());
    let secret = String::from_utf8(shown.stdout).unwrap().trim().to_string();
    assert_eq!(secret.len(), 64, "{secret:?}");
    let dir = offline(&serial, &secret, 3, 6, 6, &[]);
    assert_eq!(hex(&Sha256::digest(std::fs::read(dir.join("book.txt")).unwrap())), book["content_hash"]);
    std::fs::remove_dir_all(dir).unwrap();

    // A database no server ran on has no secret: said plainly, nothing printed.
    let empty = TestDb::sqlite();
    let refused = Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
        .args(["book", "--serial", &serial, "--out", "/nonexistent/never", "--database-url", &empty.url])
        .env_remove("PUZZLEPRESS_SECRET")
        .env_remove("PUZZLEPRESS_SECRET_FILE")
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no book secret"), "{refused:?}");
}

#[test]
fn the_offline_printrun_streams_the_archive_as_a_zip() {
    let zip = std::env::temp_dir().join(format!("pp-run-{}.zip", uuid::Uuid::new_v4().simple()));
    let status = Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
        .args(["printrun", "--copies", "2", "--pages", "3", "--rows", "8", "--cols", "8", "--zip"])
        .arg(&zip)
        .args(["--lookup-url", "https://books.example/"])
        .env("PUZZLEPRESS_SECRET", "zip-secret")
        .env_remove("PUZZLEPRESS_SECRET_FILE")
        .status()
        .unwrap();
    assert!(status.success());
    // Read back by Info-ZIP's unzip, as a printer's operator would.
    let unzip = |args: &[&str]| Command::new("unzip").args(args).arg(&zip).output().unwrap();
    assert!(unzip(&["-tq"]).status.success(), "a valid ZIP");
    let names = String::from_utf8(unzip(&["-Z1"]).stdout).unwrap();
    let names: Vec<&str> = names.lines().collect();
    let serials: Vec<&str> = names.iter().filter_map(|n| n.strip_suffix("/interior.pdf")).collect();
    assert_eq!(serials.len(), 2, "{names:?}");
    let mut want: Vec<String> =
        serials.iter().flat_map(|s| ["interior.pdf", "cover.pdf", "answer.pdf"].map(|f| format!("{s}/{f}"))).collect();
    want.extend(["manifest.csv".into(), "printrun.json".into()]);
    assert_eq!(names, want);
    let member = |name: &str| Command::new("unzip").arg("-p").arg(&zip).arg(name).output().unwrap().stdout;
    let csv = String::from_utf8(member("manifest.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    for serial in serials {
        let interior = member(&format!("{serial}/interior.pdf"));
        let line = csv.lines().find(|l| l.starts_with(serial)).unwrap();
        assert!(line.ends_with(&hex(&Sha256::digest(&interior))), "{line}");
    }
    std::fs::remove_file(zip).unwrap();
}

#[test]
fn the_offline_printrun_writes_each_copy_and_a_manifest_that_agrees_with_it() {
    let out = std::env::temp_dir().join(format!("pp-run-{}", uuid::Uuid::new_v4().simple()));
    let status = Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
        .args(["printrun", "--copies", "3", "--pages", "24", "--rows", "10", "--cols", "10", "--out"])
        .arg(&out)
        .args(["--trim", "5.5x8.5", "--title", "Run Fox", "--paper", "cream", "--lookup-url", "https://books.example/"])
        .args(["--author", "Ada Fox", "--copyright", "(c) 2026 Example Press", "--isbn", "978-0-306-40615-7"])
        .env("PUZZLEPRESS_SECRET", "run-secret")
        .env_remove("PUZZLEPRESS_SECRET_FILE")
        .status()
        .unwrap();
    assert!(status.success());
    let manifest = std::fs::read_to_string(out.join("manifest.csv")).unwrap();
    let mut lines = manifest.lines();
    assert_eq!(
        lines.next(),
        Some("serial,puzzle_pages,interior_pages,trim,word,page,row,col,direction,interior_sha256")
    );
    let lines: Vec<&str> = lines.collect();
    assert_eq!(lines.len(), 3);
    for line in lines {
        let fields: Vec<&str> = line.split(',').collect();
        let serial = fields[0];
        // Each copy is the book `puzzlepress book` prints for its serial, byte for byte.
        let imprint = ["--author", "Ada Fox", "--copyright", "(c) 2026 Example Press", "--isbn", "9780306406157"];
        let single = offline(
            serial,
            "run-secret",
            24,
            10,
            10,
            &[&["--trim", "5.5x8.5", "--title", "Run Fox", "--lookup-url", "https://books.example/"][..], &imprint]
                .concat(),
        );
        let interior = std::fs::read(out.join(serial).join("interior.pdf")).unwrap();
        assert_eq!(interior, std::fs::read(single.join("book.pdf")).unwrap(), "{serial}");
        assert_eq!(
            std::fs::read(out.join(serial).join("answer.pdf")).unwrap(),
            std::fs::read(single.join("answer.pdf")).unwrap()
        );
        assert_eq!(fields[9], hex(&Sha256::digest(&interior)), "{serial}: interior hash");
        let interior_pages = lopdf::Document::load_mem(&interior).unwrap().get_pages().len();
        assert_eq!(fields[2], interior_pages.to_string(), "{serial}: interior_pages counts the PDF's pages");
        let answer: serde_json::Value =
            serde_json::from_slice(&std::fs::read(single.join("answer.json")).unwrap()).unwrap();
        let expected = format!("{},{},{},{}", answer["page"], answer["row"], answer["col"], answer["direction"]);
        assert_eq!(fields[5..9].join(","), expected.replace('"', ""), "{serial}: the fox's place");
        assert_eq!(fields[1..5], ["24", "28", "5.5x8.5", "FOX"]);
        // The cover wraps a 28-page interior (24 puzzles and two leaves of front matter) on
        // cream paper.
        let cover = std::fs::read(out.join(serial).join("cover.pdf")).unwrap();
        let doc = lopdf::Document::load_mem(&cover).unwrap();
        let page = doc.get_dictionary(doc.page_iter().next().unwrap()).unwrap();
        let media: Vec<f32> =
            page.get(b"MediaBox").unwrap().as_array().unwrap().iter().map(|v| v.as_float().unwrap()).collect();
        let width = 2.0 * 5.5 * 72.0 + 28.0 * 0.0025 * 72.0 + 2.0 * 9.0;
        assert!((media[2] - width).abs() < 0.01, "{serial}: cover {media:?}, expected width {width}");
        std::fs::remove_dir_all(single).unwrap();
    }
    std::fs::remove_dir_all(out).unwrap();
}

/// A database written by the release before interior version 2 (`tests/fixtures/interior-v1`:
/// a cream 6x9 print run of two 24-page copies, its manifest as that release served it, and
/// one book ordered alone). After the upgrade its books keep their renderer: the manifest
/// is served with the same lines (its page count now named `puzzle_pages`, next to the
/// interior's `interior_pages`) and every PDF still hashes to it, while new books print
/// with the current renderer.
#[tokio::test(flavor = "multi_thread")]
async fn books_printed_before_interior_version_two_keep_their_bytes() {
    let db = TestDb::sqlite();
    let path = db.url.strip_prefix("sqlite://").unwrap();
    std::fs::copy("tests/fixtures/interior-v1/before.db", path).unwrap();
    let server = Server::start(&db.url, &[]);
    let run = "/printruns/be4e653c-2476-432b-b402-1716a6940728";
    let manifest = std::fs::read_to_string("tests/fixtures/interior-v1/manifest.csv").unwrap();
    // Served now with the page counts named apart (the release's `pages` is `puzzle_pages`),
    // every other column as that release served it.
    let served = String::from_utf8(bytes(&server, &format!("{run}/manifest.csv")).await).unwrap();
    let columns = |csv: &str| -> Vec<std::collections::BTreeMap<String, String>> {
        let mut lines = csv.lines();
        let header: Vec<String> =
            lines.next().unwrap().split(',').map(|h| h.replace("puzzle_pages", "pages")).collect();
        lines.map(|l| header.iter().cloned().zip(l.split(',').map(str::to_string)).collect()).collect()
    };
    let (then, now) = (columns(&manifest), columns(&served));
    assert_eq!(now.len(), then.len(), "{served}");
    for (then, mut now) in then.iter().zip(now) {
        assert_eq!(now.remove("interior_pages").as_deref(), Some("26"), "24 puzzles, the title leaf: {served}");
        assert_eq!(&now, then, "{served}");
    }
    let archive = bytes(&server, &format!("{run}/archive.zip")).await;
    for line in manifest.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let (serial, sha) = (fields[0], fields[8]);
        let (_, book) = common::get(&server, &format!("/books/{serial}")).await;
        assert_eq!(book["interior_version"], 1, "{book}");
        let pdf = bytes(&server, &format!("/books/{serial}/book.pdf")).await;
        assert_eq!(hex(&Sha256::digest(&pdf)), sha, "{serial}: the download hashes as its manifest says");
        let at = archive.windows(pdf.len()).position(|w| w == pdf.as_slice());
        assert!(at.is_some(), "{serial}: the archive holds the same interior, stored as it is");
    }
    // Ordered alone before the upgrade: the same bytes as then.
    let pdf = bytes(&server, "/books/5YDTFAM13CE/book.pdf").await;
    assert_eq!(hex(&Sha256::digest(&pdf)), "26c5b919527431b80bb4814739c14dcab2667033be8abcd0ef073e517f4351f9");

    // A book ordered now prints with the current version (the book frame, the pages of 2),
    // in fewer bytes.
    let (serial, book) = order(&server, json!({"pages": 24, "rows": 10, "cols": 8, "trim": "6x9"})).await;
    assert_eq!(book["interior_version"], 4, "{book}");
    let new = bytes(&server, &format!("/books/{serial}/book.pdf")).await;
    let old = manifest.lines().nth(1).unwrap().split(',').next().unwrap();
    let old = bytes(&server, &format!("/books/{old}/book.pdf")).await;
    assert!(new.len() < old.len(), "{} bytes against {}", new.len(), old.len());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_offline_cli_prints_a_known_book_as_ordered_and_refuses_other_options_or_another_secret() {
    for db in TestDb::both() {
        let server = Server::start_with_env(&db.url, &["--workers", "1"], &[("PUZZLEPRESS_SECRET", "known-secret")]);
        let (serial, _) = order(
            &server,
            json!({"pages": 3, "rows": 8, "cols": 8, "title": "Fox Hunt", "lookup_url": "https://example.com/find",
                   "author": "Ada Fox", "copyright": "© 2026 Example Press", "isbn": "0-306-40615-2"}),
        )
        .await;
        let run = |secret: &str, pages: &str| {
            let out = std::env::temp_dir().join(format!("pp-book-{}", uuid::Uuid::new_v4().simple()));
            let output = Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
                .args(["book", "--serial", &serial, "--pages", pages, "--rows", "8", "--cols", "8"])
                .args(["--database-url", &db.url, "--out"])
                .arg(&out)
                .env("PUZZLEPRESS_SECRET", secret)
                .env_remove("PUZZLEPRESS_SECRET_FILE")
                .output()
                .unwrap();
            (output.status.success(), String::from_utf8_lossy(&output.stderr).into_owned(), out)
        };
        // The same book without its print options: printed as it was ordered (its imprint
        // too), byte for byte.
        let (ok, stderr, out) = run("known-secret", "3");
        assert!(ok, "{stderr}");
        assert_eq!(
            bytes(&server, &format!("/books/{serial}/book.pdf")).await,
            std::fs::read(out.join("book.pdf")).unwrap()
        );
        std::fs::remove_dir_all(out).unwrap();
        // Other options, or another secret: refused with the reason, nothing written.
        let (ok, stderr, out) = run("known-secret", "4");
        assert!(!ok && stderr.contains("ordered as 3 pages of 8 x 8"), "{stderr}");
        assert!(!out.exists());
        let (ok, stderr, out) = run("another-secret", "3");
        assert!(!ok && stderr.contains("the secret is not the one"), "{stderr}");
        assert!(!out.exists());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_started_with_another_secret_than_its_books_refuses_unless_told() {
    for db in TestDb::both() {
        let server = Server::start_with_env(&db.url, &["--workers", "0"], &[("PUZZLEPRESS_SECRET", "first-secret")]);
        drop(server);
        let serve = |extra: &[&str]| {
            let mut child = Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
                .args(["serve", "--bind", "127.0.0.1:0", "--workers", "0", "--database-url", &db.url])
                .args(extra)
                .env("PUZZLEPRESS_SECRET", "second-secret")
                .env_remove("PUZZLEPRESS_SECRET_FILE")
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            // Refused at once, or still serving after two seconds.
            let start = std::time::Instant::now();
            while child.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(2) {
                std::thread::sleep(Duration::from_millis(20));
            }
            let exited = child.try_wait().unwrap().is_some();
            if !exited {
                child.kill().unwrap();
            }
            let output = child.wait_with_output().unwrap();
            (exited, String::from_utf8_lossy(&output.stderr).into_owned() + &String::from_utf8_lossy(&output.stdout))
        };
        let (exited, log) = serve(&[]);
        assert!(exited && log.contains("--new-book-secret"), "{log}");
        let (exited, log) = serve(&["--new-book-secret"]);
        assert!(!exited, "told, it serves with the new secret: {log}");
        // From then on the new secret is the database's: no flag needed.
        let (exited, log) = serve(&[]);
        assert!(!exited, "{log}");
    }
}

/// Copies printed offline are unknown to the server until their run is registered: the
/// `printrun.json` the command writes is a print run order with the copies' serials, from
/// which the server makes the same books (the same manifest, byte for byte), so readers
/// find their answers; a serial registered twice is refused, naming it.
#[tokio::test(flavor = "multi_thread")]
async fn an_offline_print_run_registered_with_the_server_is_looked_up_by_its_readers() {
    let db = TestDb::sqlite();
    let server = Server::start(&db.url, &["--workers", "1"]);
    let out = std::env::temp_dir().join(format!("pp-run-{}", uuid::Uuid::new_v4().simple()));
    let printrun = |lookup: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
            .args(["printrun", "--copies", "3", "--pages", "5", "--rows", "8", "--cols", "8", "--paper", "cream"])
            .args(["--title", "Fox Run", "--database-url", &db.url, "--out"])
            .arg(&out)
            .args(lookup)
            .env_remove("PUZZLEPRESS_SECRET")
            .env_remove("PUZZLEPRESS_SECRET_FILE")
            .output()
            .unwrap()
    };
    // Copies whose QR codes would lead nowhere are not printed.
    let refused = printrun(&[]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--lookup-url is required"), "{refused:?}");
    let printed = printrun(&["--lookup-url", "https://books.example/"]);
    let said = String::from_utf8_lossy(&printed.stderr);
    assert!(printed.status.success(), "{said}");
    assert!(said.contains("No server knows these serials yet") && said.contains("printrun.json"), "{said}");
    let manifest = std::fs::read_to_string(out.join("manifest.csv")).unwrap();
    let serials: Vec<String> = manifest.lines().skip(1).map(|l| l.split(',').next().unwrap().to_string()).collect();
    assert_eq!(serials.len(), 3);
    let (status, _) = common::get(&server, &format!("/books/{}/answer", serials[0])).await;
    assert_eq!(status, 404, "not registered yet");

    let order: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("printrun.json")).unwrap()).unwrap();
    assert_eq!(order["serials"], json!(serials));
    let (status, _, run) = post(&server, "/printruns", order.clone()).await;
    assert_eq!(status, 202, "{run}");
    assert_eq!((run["title"].as_str(), run["paper"].as_str()), (Some("Fox Run"), Some("cream")));
    let location = run["links"]["self"].as_str().unwrap().to_string();
    let started = std::time::Instant::now();
    loop {
        let (_, run) = common::get(&server, &location).await;
        if run["state"] == "succeeded" {
            let copies: Vec<&str> =
                run["books"].as_array().unwrap().iter().map(|b| b["serial"].as_str().unwrap()).collect();
            assert_eq!(copies, serials, "the copies are the registered serials, in order");
            break;
        }
        assert!(run["state"] != "failed" && started.elapsed() < Duration::from_secs(60), "{run}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let served = String::from_utf8(bytes(&server, &format!("{location}/manifest.csv")).await).unwrap();
    assert_eq!(served, manifest, "the server made the same books");
    for serial in &serials {
        let (status, answer) = common::get(&server, &format!("/books/{serial}/answer")).await;
        assert_eq!(status, 200, "{answer}");
    }

    // Registered once: again is refused, naming the first serial that is a book already.
    let (status, _, problem) = post(&server, "/printruns", order.clone()).await;
    assert_eq!((status, problem["field"].as_str()), (422, Some("serials[0]")), "{problem}");
    // One serial per copy, each well formed and distinct.
    let mut short = order.clone();
    short["copies"] = json!(4);
    let (status, _, problem) = post(&server, "/printruns", short).await;
    assert_eq!((status, problem["field"].as_str()), (422, Some("serials")), "{problem}");
    let mut twice = order.clone();
    twice["serials"] = json!([serials[1], serials[0], serials[0]]);
    let (status, _, problem) = post(&server, "/printruns", twice).await;
    assert_eq!((status, problem["field"].as_str()), (422, Some("serials[2]")), "{problem}");
    let mut mistyped = order.clone();
    mistyped["serials"][1] = json!("not a serial");
    let (status, _, problem) = post(&server, "/printruns", mistyped).await;
    assert_eq!((status, problem["field"].as_str()), (422, Some("serials[1]")), "{problem}");
    std::fs::remove_dir_all(out).unwrap();
}

/// A server not told its public address (`--lookup-url`) warns on each book whose lookup
/// address names its own machine, and refuses print runs that do not give one.
#[tokio::test(flavor = "multi_thread")]
async fn without_a_public_lookup_address_print_runs_must_name_one() {
    let db = TestDb::sqlite();
    let server = Server::start_with_env(&db.url, &["--workers", "1"], &[("PUZZLEPRESS_LOOKUP_URL", "")]);
    let (status, _, problem) =
        post(&server, "/printruns", json!({"copies": 2, "pages": 3, "rows": 8, "cols": 8})).await;
    assert_eq!((status, problem["field"].as_str()), (422, Some("lookup_url")), "{problem}");
    assert!(problem["detail"].as_str().unwrap().contains("--lookup-url"), "{problem}");
    let (status, _, run) = post(
        &server,
        "/printruns",
        json!({"copies": 2, "pages": 3, "rows": 8, "cols": 8, "lookup_url": "https://fox.example/find"}),
    )
    .await;
    assert_eq!(status, 202, "{run}");
    assert_eq!(run["warnings"], json!([]));
    // A single book is still printed (to try the service), with the reason it should not be.
    let (status, _, book) = post(&server, "/books", json!({"pages": 3, "rows": 8, "cols": 8})).await;
    assert_eq!(status, 202, "{book}");
    assert!(book["lookup_url"].as_str().unwrap().starts_with("http://127.0.0.1:"), "{book}");
    assert!(book["warnings"][0].as_str().unwrap().contains("readers of the printed book cannot reach it"), "{book}");

    // Told its address, the same server prints it by default, without a warning.
    // (The database kept for the server's life: a temporary one would be deleted at once.)
    let told_db = TestDb::sqlite();
    let told = Server::start(&told_db.url, &["--workers", "1"]);
    let (status, _, book) = post(&told, "/books", json!({"pages": 3, "rows": 8, "cols": 8})).await;
    assert_eq!(status, 202, "{book}");
    assert_eq!((book["lookup_url"].as_str(), &book["warnings"]), (Some("https://books.example/"), &json!([])));
}
