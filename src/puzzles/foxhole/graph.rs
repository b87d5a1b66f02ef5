//! The holes and which holes the fox can reach overnight, validated once so the
//! search and the checker can trust it.

/// Candidate sets are bitsets over holes, so the hole count is capped by `u32`
/// (and by the 2^n-bit visited map the search allocates).
pub const MAX_HOLES: usize = 30;

/// The maxima a server enforces on fox-hole requests; above one a request is refused
/// ([`Graph::check_limits`], [`super::check_within`]), never clamped.
///
/// The search on any graph of up to [`MAX_HOLES`] holes is bounded by the sets it may
/// store (2^27); on the graphs tried (lines, caterpillars, lobsters, spiders, grids,
/// random trees of 30 holes) it takes at most 20 ms.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Most holes in a graph (a larger value acts as [`MAX_HOLES`]).
    pub max_holes: usize,
    /// Longest inspection list a check replays (its answer lists as many holes).
    pub max_inspections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_holes: MAX_HOLES, max_inspections: 100_000 }
    }
}

/// A set of holes, bit `i` = hole `i`.
pub(crate) type Set = u32;

/// What is wrong with a graph or with an inspection list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    /// The graph must have `1..=MAX_HOLES` holes.
    #[error("the graph must have between 1 and {MAX_HOLES} holes, got {holes}")]
    HoleCount { holes: usize },
    /// More holes than [`Limits::max_holes`] allows.
    #[error("the graph may have at most {max} holes, got {holes}")]
    HoleLimit { holes: usize, max: usize },
    /// A longer inspection list than [`Limits::max_inspections`] allows.
    #[error("at most {max} inspections can be checked, got {count}")]
    InspectionLimit { count: usize, max: usize },
    #[error("hole {hole} lists neighbour {neighbour}, but the holes are numbered 0 to {}", .holes - 1)]
    NeighbourOutOfRange { hole: usize, neighbour: usize, holes: usize },
    #[error("hole {hole} lists itself as a neighbour; the fox must move to a different hole each night")]
    SelfLoop { hole: usize },
    #[error("hole {hole} lists neighbour {neighbour} more than once")]
    DuplicateNeighbour { hole: usize, neighbour: usize },
    /// `hole` lists `neighbour`, but `neighbour` does not list `hole`.
    #[error("hole {hole} lists {neighbour} but {neighbour} does not list {hole}; tunnels go both ways")]
    Asymmetric { hole: usize, neighbour: usize },
    /// Only the one-hole graph may have a hole without neighbours.
    #[error("hole {hole} has no neighbours; the fox must be able to move")]
    NoNeighbours { hole: usize },
    /// Inspection number `index` (0-based; day `index + 1`) names a hole that does not exist.
    #[error(
        "inspection {index} (day {}) is hole {hole}, but the holes are numbered 0 to {}",
        .index + 1,
        .holes - 1
    )]
    InspectionOutOfRange { index: usize, hole: usize, holes: usize },
}

/// An undirected graph of 1..=30 holes in which every hole has a neighbour
/// (except the lone hole of the one-hole graph, where day 1 catches the fox).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    adjacency: Vec<Vec<usize>>,
    /// `spread[k][b]` = neighbours of the holes in byte `b` of a set, shifted to byte `k`:
    /// the union of neighbours of a set is then four table look-ups.
    spread: Box<[[Set; 256]; 4]>,
}

impl Graph {
    /// Holes `0..n` in a row, each next to the one before and after it.
    pub fn line(n: usize) -> Result<Graph, GraphError> {
        if n == 0 || n > MAX_HOLES {
            return Err(GraphError::HoleCount { holes: n });
        }
        let adjacency = (0..n)
            .map(|i| {
                let mut next = Vec::with_capacity(2);
                if i > 0 {
                    next.push(i - 1);
                }
                if i + 1 < n {
                    next.push(i + 1);
                }
                next
            })
            .collect();
        Graph::from_adjacency(adjacency)
    }

    /// `adjacency[i]` lists the holes next to hole `i` (0-based); every edge must be
    /// listed from both ends. Reports the first problem in hole order.
    pub fn from_adjacency(adjacency: Vec<Vec<usize>>) -> Result<Graph, GraphError> {
        let holes = adjacency.len();
        if holes == 0 || holes > MAX_HOLES {
            return Err(GraphError::HoleCount { holes });
        }
        let mut masks = vec![0 as Set; holes];
        for (hole, neighbours) in adjacency.iter().enumerate() {
            for &neighbour in neighbours {
                if neighbour >= holes {
                    return Err(GraphError::NeighbourOutOfRange { hole, neighbour, holes });
                }
                if neighbour == hole {
                    return Err(GraphError::SelfLoop { hole });
                }
                if masks[hole] & (1 << neighbour) != 0 {
                    return Err(GraphError::DuplicateNeighbour { hole, neighbour });
                }
                masks[hole] |= 1 << neighbour;
            }
        }
        for (hole, neighbours) in adjacency.iter().enumerate() {
            for &neighbour in neighbours {
                if masks[neighbour] & (1 << hole) == 0 {
                    return Err(GraphError::Asymmetric { hole, neighbour });
                }
            }
        }
        if holes > 1 {
            if let Some(hole) = masks.iter().position(|&m| m == 0) {
                return Err(GraphError::NoNeighbours { hole });
            }
        }
        let mut spread = Box::new([[0 as Set; 256]; 4]);
        for (k, table) in spread.iter_mut().enumerate() {
            for (byte, entry) in table.iter_mut().enumerate() {
                *entry = (0..8)
                    .filter(|bit| byte & (1 << bit) != 0)
                    .map(|bit| 8 * k + bit)
                    .filter(|&hole| hole < holes)
                    .fold(0, |acc, hole| acc | masks[hole]);
            }
        }
        Ok(Graph { adjacency, spread })
    }

    /// Refuses a graph with more holes than `limits` allow.
    pub fn check_limits(&self, limits: &Limits) -> Result<(), GraphError> {
        let max = limits.max_holes.min(MAX_HOLES);
        match self.holes() {
            holes if holes > max => Err(GraphError::HoleLimit { holes, max }),
            _ => Ok(()),
        }
    }

    pub fn holes(&self) -> usize {
        self.adjacency.len()
    }

    pub fn adjacency(&self) -> &[Vec<usize>] {
        &self.adjacency
    }

    pub fn neighbours(&self, hole: usize) -> &[usize] {
        &self.adjacency[hole]
    }

    /// Every hole.
    pub(crate) fn all(&self) -> Set {
        ((1u64 << self.holes()) - 1) as Set
    }

    /// Holes the fox can reach overnight from somewhere in `set`.
    #[inline]
    pub(crate) fn spread(&self, set: Set) -> Set {
        let t = &self.spread;
        t[0][(set & 0xff) as usize]
            | t[1][((set >> 8) & 0xff) as usize]
            | t[2][((set >> 16) & 0xff) as usize]
            | t[3][(set >> 24) as usize]
    }
}

impl Graph {
    /// Connected parts, each as its holes in increasing order, ordered by lowest hole.
    pub(crate) fn components(&self) -> Vec<Vec<usize>> {
        let mut seen: Set = 0;
        let mut parts = Vec::new();
        for start in 0..self.holes() {
            if seen & (1 << start) != 0 {
                continue;
            }
            let mut part: Set = 1 << start;
            loop {
                let grown = part | self.spread(part);
                if grown == part {
                    break;
                }
                part = grown;
            }
            seen |= part;
            parts.push(members(part));
        }
        parts
    }

    /// The graph on a connected part (`holes` increasing), renumbered `0..` in that order.
    pub(crate) fn induced(&self, holes: &[usize]) -> Graph {
        let local = |h: usize| holes.binary_search(&h).expect("a connected part holds its neighbours");
        let adjacency = holes.iter().map(|&h| self.adjacency[h].iter().map(|&n| local(n)).collect()).collect();
        Graph::from_adjacency(adjacency).expect("a part of a valid graph is valid")
    }
}

/// The holes of a set in increasing order.
pub(crate) fn members(set: Set) -> Vec<usize> {
    (0..32).filter(|&i| set & (1 << i) != 0).collect()
}
