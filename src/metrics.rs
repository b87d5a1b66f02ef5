//! In-process counters and histograms, rendered in the Prometheus text format. Job
//! counts by state come from the database at scrape time, so every replica reports the
//! same queue.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;

/// Upper bounds (seconds) of the job-duration histogram buckets.
const BUCKETS: [f64; 12] = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 60.0];

#[derive(Default)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    sum: f64,
    count: u64,
}

#[derive(Default)]
pub struct Metrics {
    http: Mutex<BTreeMap<(String, String, u16), u64>>,
    runs: Mutex<BTreeMap<(String, &'static str), u64>>,
    durations: Mutex<BTreeMap<String, Histogram>>,
}

impl Metrics {
    pub fn http_request(&self, method: &str, route: &str, status: u16) {
        let mut http = self.http.lock().unwrap_or_else(|e| e.into_inner());
        *http.entry((method.to_string(), route.to_string(), status)).or_default() += 1;
    }

    /// Records a run of a job by this process: `outcome` is succeeded, failed, cancelled,
    /// released or lost.
    pub fn job_run(&self, kind: &str, outcome: &'static str, seconds: f64) {
        let mut runs = self.runs.lock().unwrap_or_else(|e| e.into_inner());
        *runs.entry((kind.to_string(), outcome)).or_default() += 1;
        drop(runs);
        let mut durations = self.durations.lock().unwrap_or_else(|e| e.into_inner());
        let h = durations.entry(kind.to_string()).or_default();
        for (bound, count) in BUCKETS.iter().zip(h.counts.iter_mut()) {
            if seconds <= *bound {
                *count += 1;
            }
        }
        h.sum += seconds;
        h.count += 1;
    }

    /// The Prometheus text; `jobs` are (kind, state, count) as the database has them now,
    /// `renders` the PDFs this process has rendered for downloads.
    pub fn render<'a>(&self, jobs: impl IntoIterator<Item = (&'a str, &'a str, i64)>, renders: u64) -> String {
        let mut out = String::new();
        out.push_str(
            "# HELP puzzlepress_jobs Jobs in the database by kind and state.\n# TYPE puzzlepress_jobs gauge\n",
        );
        for (kind, state, count) in jobs {
            let _ = writeln!(out, "puzzlepress_jobs{{kind=\"{kind}\",state=\"{state}\"}} {count}");
        }
        out.push_str("# HELP puzzlepress_job_runs_total Job runs finished by this process.\n# TYPE puzzlepress_job_runs_total counter\n");
        for ((kind, outcome), n) in self.runs.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            let _ = writeln!(out, "puzzlepress_job_runs_total{{kind=\"{kind}\",outcome=\"{outcome}\"}} {n}");
        }
        out.push_str("# HELP puzzlepress_job_duration_seconds Wall time of job runs in this process.\n# TYPE puzzlepress_job_duration_seconds histogram\n");
        for (kind, h) in self.durations.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            for (bound, count) in BUCKETS.iter().zip(h.counts.iter()) {
                let _ =
                    writeln!(out, "puzzlepress_job_duration_seconds_bucket{{kind=\"{kind}\",le=\"{bound}\"}} {count}");
            }
            let _ = writeln!(out, "puzzlepress_job_duration_seconds_bucket{{kind=\"{kind}\",le=\"+Inf\"}} {}", h.count);
            let _ = writeln!(out, "puzzlepress_job_duration_seconds_sum{{kind=\"{kind}\"}} {}", h.sum);
            let _ = writeln!(out, "puzzlepress_job_duration_seconds_count{{kind=\"{kind}\"}} {}", h.count);
        }
        out.push_str(
            "# HELP puzzlepress_renders_total PDFs rendered for downloads by this process (not those answered \
             from the render cache or a stored file, nor a print run's archive).\n\
             # TYPE puzzlepress_renders_total counter\n",
        );
        let _ = writeln!(out, "puzzlepress_renders_total {renders}");
        out.push_str("# HELP puzzlepress_http_requests_total HTTP requests by method, route and status.\n# TYPE puzzlepress_http_requests_total counter\n");
        for ((method, route, status), n) in self.http.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            let _ = writeln!(
                out,
                "puzzlepress_http_requests_total{{method=\"{method}\",route=\"{route}\",status=\"{status}\"}} {n}"
            );
        }
        out
    }
}
