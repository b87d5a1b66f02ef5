//! Gray codes: sequences of `length` distinct `bits`-bit codes in which neighbours
//! differ in exactly one bit (Hamiltonian paths of the hypercube when `length` is
//! 2^bits), optionally circular (last and first differ in one bit too) and optionally
//! starting at code 0. Lists them page by page in lexicographic order, or counts them.
//!
//! Every search is depth-first over one-bit flips and charged against a deterministic
//! node budget, so a request too large to finish ends with a clear reason instead of
//! running for ever, and the same request always gives the same answer.

mod cursor;
#[cfg(test)]
mod tests;
mod walk;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::puzzles::monitor::{Cancelled, Monitor};
use walk::{Meter, Order, Shape, Stop, Visited, Walk, Wide};

pub const MAX_BITS: u32 = 16;
pub const DEFAULT_LIMIT: usize = 100;
/// Search nodes (codes placed) one request may spend unless it asks otherwise:
/// a few seconds of work (16 s counting, 25 s listing on a loaded 2-core machine).
pub const DEFAULT_NODE_BUDGET: u64 = 1_000_000_000;

/// The maxima a server enforces on Gray code requests; a request above one is refused
/// before any search ([`GrayError::field`] names the field), never clamped.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Largest `node_budget` (about 25 M nodes a second listing, 60 M counting, on a
    /// loaded 2-core machine).
    pub max_node_budget: u64,
    /// Largest `limit` (sequences per page).
    pub max_limit: usize,
    /// Largest page, as compact JSON: `limit` sequences of `length` codes must fit.
    pub max_result_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_node_budget: 2_000_000_000, max_limit: 10_000, max_result_bytes: 4 << 20 }
    }
}

/// Room kept in a page for everything besides the sequences and the cursor.
const ENVELOPE_BYTES: usize = 1024;

/// Upper bound of one sequence of `length` codes of `bits` bits as compact JSON, with
/// its separating comma: `[c,c,…,c],`.
fn sequence_bytes(bits: u32, length: usize) -> usize {
    let digits = ((1u64 << bits) - 1).to_string().len();
    length * (digits + 1) + 2
}

/// How many sequences of `length` codes fit in a page of `max_bytes` (with its cursor,
/// which spells one hex digit per step).
fn page_fits(bits: u32, length: usize, max_bytes: usize) -> usize {
    max_bytes.saturating_sub(ENVELOPE_BYTES + length) / sequence_bytes(bits, length)
}

crate::fields::api_struct! {
    /// A request, as the API receives it.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(deny_unknown_fields)]
    pub struct GrayRequest {
        /// Bits per code.
        #[schema(minimum = 1, maximum = 16)]
        pub bits: u32,
        /// Codes per sequence, at most 2^bits.
        #[schema(minimum = 1, maximum = 65536)]
        pub length: usize,
        /// Last and first code differ in one bit too (needs an even length).
        #[serde(default)]
        #[schema(default = false)]
        pub circular: bool,
        /// Every sequence starts at code 0.
        #[serde(default)]
        #[schema(default = false)]
        pub start_at_zero: bool,
        /// Count instead of listing.
        #[serde(default)]
        #[schema(default = false)]
        pub count_only: bool,
        /// Sequences per page (limit × length ≤ 1,000,000).
        #[schema(minimum = 1, maximum = 10000, default = 100)]
        pub limit?: usize,
        /// The `next_cursor` of the previous page (listings only).
        pub cursor?: String,
        /// Search nodes to spend at most.
        #[schema(minimum = 1, default = 1000000000)]
        pub node_budget?: u64,
    }
}

crate::fields::api_struct! {
    /// The answer. `sequences` is empty when counting; `count` is absent when listing.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
    pub struct GrayOutcome {
        pub bits: u32,
        pub length: usize,
        pub circular: bool,
        pub start_at_zero: bool,
        /// The number of sequences (counts only).
        pub count?: Count,
        /// With `count`: true when the budget ran out, so `count` is only a lower bound.
        pub count_is_lower_bound?: bool,
        /// One page of sequences (empty when counting).
        pub sequences: Vec<Vec<u32>>,
        /// Pass back as `cursor` for the next page; absent once the listing is complete.
        pub next_cursor?: String,
        /// Why the answer is partial (budget exhausted).
        pub reason?: String,
    }
}

/// A count, which can exceed 64 bits (16-bit codes, all starts). Serialized as a
/// JSON integer when it fits in `u64`, otherwise as a decimal string, so it survives
/// `serde_json::Value`. (JavaScript reads integers above 2^53 inexactly.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Count(pub u128);

impl utoipa::PartialSchema for Count {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
        OneOfBuilder::new()
            .description(Some("A number of sequences: an integer, or a decimal string when above 2^64."))
            .item(ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0)))
            .item(ObjectBuilder::new().schema_type(Type::String).pattern(Some("^[0-9]+$")))
            .into()
    }
}

impl utoipa::ToSchema for Count {
    fn name() -> std::borrow::Cow<'static, str> {
        "GrayCount".into()
    }
}

impl Serialize for Count {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match u64::try_from(self.0) {
            Ok(small) => s.serialize_u64(small),
            Err(_) => s.serialize_str(&self.0.to_string()),
        }
    }
}

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            Int(u64),
            Text(String),
        }
        match Either::deserialize(d)? {
            Either::Int(n) => Ok(Count(n as u128)),
            Either::Text(t) => t.parse().map(Count).map_err(serde::de::Error::custom),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GrayError {
    #[error("bits must be between 1 and {MAX_BITS}, got {bits}")]
    Bits { bits: u32 },
    #[error(
        "length must be between 1 and 2^{bits} = {} (the number of {bits}-bit codes), got {length}",
        1u64 << .bits
    )]
    Length { length: usize, bits: u32 },
    /// Circular codes need an even length.
    #[error(
        "a circular Gray code needs an even length: each step changes the number of 1-bits \
         by one, so getting back next to the start takes an even number of codes; got length {length}"
    )]
    OddCircular { length: usize },
    #[error("limit must be between 1 and {max}, got {limit}")]
    Limit { limit: usize, max: usize },
    /// `limit` sequences of `length` codes would not fit in `max_bytes`; `fits` would.
    #[error(
        "a page may take at most {max_bytes} bytes, which holds at most {fits} sequences of length \
         {length}, but limit is {limit}; lower the limit"
    )]
    PageTooLarge { limit: usize, length: usize, fits: usize, max_bytes: usize },
    #[error("node_budget must be at least 1")]
    ZeroBudget,
    #[error("node_budget must be at most {max} (got {budget})")]
    BudgetTooLarge { budget: u64, max: u64 },
    #[error("cursor pages through a listing; it cannot be combined with count_only")]
    CursorWithCount,
    #[error("invalid cursor: {why}")]
    BadCursor { why: String },
    #[error("cancelled")]
    Cancelled,
}

impl GrayError {
    /// The request field at fault.
    pub fn field(&self) -> &'static str {
        match self {
            GrayError::Bits { .. } => "bits",
            GrayError::Length { .. } | GrayError::OddCircular { .. } => "length",
            GrayError::Limit { .. } | GrayError::PageTooLarge { .. } => "limit",
            GrayError::ZeroBudget | GrayError::BudgetTooLarge { .. } => "node_budget",
            GrayError::CursorWithCount | GrayError::BadCursor { .. } => "cursor",
            GrayError::Cancelled => "",
        }
    }
}

impl From<Cancelled> for GrayError {
    fn from(_: Cancelled) -> Self {
        GrayError::Cancelled
    }
}

/// The validated shape of the sequences wanted.
#[derive(Debug, Clone, Copy)]
struct Spec {
    bits: u32,
    length: usize,
    circular: bool,
    start_at_zero: bool,
}

impl Spec {
    fn shape(&self) -> Shape {
        Shape { bits: self.bits, length: self.length, circular: self.circular }
    }

    fn outcome(&self) -> GrayOutcome {
        GrayOutcome {
            bits: self.bits,
            length: self.length,
            circular: self.circular,
            start_at_zero: self.start_at_zero,
            count: None,
            count_is_lower_bound: None,
            sequences: Vec::new(),
            next_cursor: None,
            reason: None,
        }
    }
}

/// What a valid request asks for.
enum Plan {
    Count,
    List { limit: usize, resume: Option<walk::Position> },
}

/// Checks a request without running it, within the default [`Limits`]: every error
/// names its field (see [`GrayError::field`]).
pub fn validate(req: &GrayRequest) -> Result<(), GrayError> {
    validate_within(req, &Limits::default())
}

/// [`validate`] within `limits`.
pub fn validate_within(req: &GrayRequest, limits: &Limits) -> Result<(), GrayError> {
    plan(req, limits).map(|_| ())
}

fn plan(req: &GrayRequest, limits: &Limits) -> Result<(Spec, u64, Plan), GrayError> {
    if !(1..=MAX_BITS).contains(&req.bits) {
        return Err(GrayError::Bits { bits: req.bits });
    }
    if req.length == 0 || req.length > 1 << req.bits {
        return Err(GrayError::Length { length: req.length, bits: req.bits });
    }
    if req.circular && req.length % 2 == 1 {
        return Err(GrayError::OddCircular { length: req.length });
    }
    let budget = req.node_budget.unwrap_or(DEFAULT_NODE_BUDGET.min(limits.max_node_budget));
    if budget == 0 {
        return Err(GrayError::ZeroBudget);
    }
    if budget > limits.max_node_budget {
        return Err(GrayError::BudgetTooLarge { budget, max: limits.max_node_budget });
    }
    let spec = Spec { bits: req.bits, length: req.length, circular: req.circular, start_at_zero: req.start_at_zero };
    if req.count_only {
        if req.cursor.is_some() {
            return Err(GrayError::CursorWithCount);
        }
        return Ok((spec, budget, Plan::Count));
    }
    let limit = req.limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=limits.max_limit).contains(&limit) {
        return Err(GrayError::Limit { limit, max: limits.max_limit });
    }
    let fits = page_fits(spec.bits, spec.length, limits.max_result_bytes);
    if limit > fits {
        return Err(GrayError::PageTooLarge { limit, length: spec.length, fits, max_bytes: limits.max_result_bytes });
    }
    let resume = req.cursor.as_deref().map(|c| cursor::decode(&spec, c)).transpose()?;
    Ok((spec, budget, Plan::List { limit, resume }))
}

/// Lists or counts, as the request says, within the default [`Limits`]. Errors name the
/// field at fault; `GrayError::Cancelled` when `progress` asks to stop.
///
/// Circular codes of length 2 are allowed: the two codes are neighbours both ways.
pub fn gray_codes(req: &GrayRequest, progress: &mut dyn Monitor) -> Result<GrayOutcome, GrayError> {
    gray_codes_within(req, &Limits::default(), progress)
}

/// [`gray_codes`] within `limits`: a request above them is refused before any search.
pub fn gray_codes_within(
    req: &GrayRequest,
    limits: &Limits,
    progress: &mut dyn Monitor,
) -> Result<GrayOutcome, GrayError> {
    let (spec, budget, plan) = plan(req, limits)?;
    let mut meter = Meter::new(budget, progress);
    match plan {
        Plan::Count => match spec.bits {
            ..=6 => count::<u64>(&spec, &mut meter),
            7 => count::<u128>(&spec, &mut meter),
            _ => count::<Wide>(&spec, &mut meter),
        },
        Plan::List { limit, resume } => match spec.bits {
            ..=6 => list::<u64>(&spec, limit, resume, &mut meter),
            7 => list::<u128>(&spec, limit, resume, &mut meter),
            _ => list::<Wide>(&spec, limit, resume, &mut meter),
        },
    }
}

/// Counts with two exact symmetries of the hypercube. XOR with a fixed code maps the
/// sequences from 0 one-to-one onto those from any start, so all starts give
/// 2^bits × the count from 0. Permuting bit positions fixes 0, keeps one-bit steps and
/// closure: each sequence from 0 has exactly one relabelling that introduces its bits
/// in order 0, 1, 2, … (the canonical walk), and a canonical sequence using `m`
/// distinct bits stands for bits!/(bits−m)! sequences (the ways to choose and order
/// the real bits).
fn count<V: Visited>(spec: &Spec, meter: &mut Meter) -> Result<GrayOutcome, GrayError> {
    let weight: Vec<u128> = (0..=spec.bits).map(|m| (0..m).map(|i| (spec.bits - i) as u128).product()).collect();
    let mut from_zero: u128 = 0;
    let mut finished = true;
    if spec.length == 1 {
        from_zero = 1;
    } else {
        // Walk to one short of the end and add up the canonical last steps directly.
        let mut walk = Walk::<V>::counting(spec.shape());
        finished = loop {
            match walk.next_sequence(meter) {
                Ok(true) => {
                    let (end, used) = (walk.end(), walk.bits_used());
                    for k in 0..(used + 1).min(spec.bits) {
                        let last = end ^ (1 << k);
                        if walk.is_free(last) && (!spec.circular || last.count_ones() == 1) {
                            from_zero = from_zero.saturating_add(weight[used.max(k + 1) as usize]);
                        }
                    }
                }
                Ok(false) => break true,
                Err(Stop::Budget) => break false,
                Err(Stop::Cancelled) => return Err(GrayError::Cancelled),
            }
        };
    }
    let starts: u128 = if spec.start_at_zero { 1 } else { 1 << spec.bits };
    let total = from_zero.saturating_mul(starts);
    let mut out = spec.outcome();
    out.count = Some(Count(total));
    out.count_is_lower_bound = Some(!finished);
    if !finished {
        out.reason = Some(format!(
            "node budget of {} exhausted before the count finished; {total} is a lower bound",
            meter.budget
        ));
    }
    Ok(out)
}

/// One page in lexicographic order (start codes ascending, then children by
/// increasing code). Looks one sequence past the page so that `next_cursor` is only
/// given when more may follow.
fn list<V: Visited>(
    spec: &Spec,
    limit: usize,
    resume: Option<walk::Position>,
    meter: &mut Meter,
) -> Result<GrayOutcome, GrayError> {
    let mut out = spec.outcome();
    let last_start: u32 = if spec.start_at_zero { 0 } else { (1 << spec.bits) - 1 };
    let (mut start, mut walk) = match &resume {
        Some(at) => (at.path[0], Walk::<V>::resume(spec.shape(), at)),
        None => (0, Walk::<V>::new(spec.shape(), Order::Lex, 0)),
    };
    loop {
        match walk.next_sequence(meter) {
            Ok(true) if out.sequences.len() == limit => {
                let last = walk::Position { path: out.sequences[limit - 1].clone(), pending: None };
                out.next_cursor = Some(cursor::encode(spec, &last));
                return Ok(out);
            }
            Ok(true) => out.sequences.push(walk.path()),
            Ok(false) if start == last_start => return Ok(out),
            Ok(false) => {
                start += 1;
                walk = Walk::new(spec.shape(), Order::Lex, start);
            }
            Err(Stop::Budget) => {
                out.next_cursor = Some(cursor::encode(spec, &walk.position()));
                out.reason = Some(if out.sequences.len() == limit {
                    format!(
                        "node budget of {} exhausted while looking for more sequences after this \
                         full page; continue with next_cursor",
                        meter.budget
                    )
                } else {
                    format!(
                        "node budget of {} exhausted before the page was full; {} sequences \
                         returned, continue with next_cursor",
                        meter.budget,
                        out.sequences.len()
                    )
                });
                return Ok(out);
            }
            Err(Stop::Cancelled) => return Err(GrayError::Cancelled),
        }
    }
}

/// A code as `bits` binary digits, most significant first: `to_binary(3, 4)` is `"0011"`.
pub fn to_binary(code: u32, bits: u32) -> String {
    format!("{code:0width$b}", width = bits as usize)
}

/// A whole sequence in binary.
pub fn sequence_to_binary(sequence: &[u32], bits: u32) -> Vec<String> {
    sequence.iter().map(|&c| to_binary(c, bits)).collect()
}
