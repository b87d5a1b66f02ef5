//! The validated puzzle type, its region layout, and validation shared by both input formats.

use super::error::{ErrorKind, Loc, ParseError};
use serde::{Deserialize, Serialize};

/// Smallest and largest supported grid sizes.
pub const MIN_SIZE: usize = 4;
pub const MAX_SIZE: usize = 9;

/// A given digit; `row` and `col` are 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = OneUpClue)]
pub struct Clue {
    #[schema(minimum = 1, maximum = 9)]
    pub row: usize,
    #[schema(minimum = 1, maximum = 9)]
    pub col: usize,
    #[schema(minimum = 1, maximum = 9)]
    pub digit: u8,
}

/// A validated One Up puzzle. Serializes to the JSON form
/// `{"row_regions": [...], "col_regions": [...], "clues": [{"row", "col", "digit"}]}`;
/// deserializing validates (see [`Puzzle::from_json_value`]).
///
/// `row_regions[r]` holds the labels of row `r`'s cells; `col_regions[r]` holds, at
/// character `c`, the label of cell (r, c) within column `c` (the original file layout).
/// A region is a maximal run of equal labels along its row or column.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Puzzle {
    row_regions: Vec<String>,
    col_regions: Vec<String>,
    clues: Vec<Clue>,
}

/// The JSON form, as clients send and read it; unknown members are refused.
impl utoipa::PartialSchema for Puzzle {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{AdditionalProperties, ArrayBuilder, ObjectBuilder, Type};
        use utoipa::ToSchema;
        let labels = |description: &str| {
            ArrayBuilder::new()
                .items(
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .min_length(Some(MIN_SIZE))
                        .max_length(Some(MAX_SIZE)),
                )
                .min_items(Some(MIN_SIZE))
                .max_items(Some(MAX_SIZE))
                .description(Some(description))
        };
        ObjectBuilder::new()
            .description(Some(
                "A One Up puzzle of N x N cells (N from 4 to 9). A region is a maximal run of equal labels along its \
                 row or column.",
            ))
            .property(
                "row_regions",
                labels("N strings of N labels; character c of string r labels cell (r, c) within its row."),
            )
            .property(
                "col_regions",
                labels("N strings of N labels; character c of string r labels cell (r, c) within its column."),
            )
            .property(
                "clues",
                ArrayBuilder::new()
                    .items(utoipa::openapi::Ref::from_schema_name(Clue::name()))
                    .description(Some("The given digits; row and col are 1-based.")),
            )
            .required("row_regions")
            .required("col_regions")
            .required("clues")
            .additional_properties(Some(AdditionalProperties::FreeForm(false)))
            .into()
    }
}

impl utoipa::ToSchema for Puzzle {
    fn name() -> std::borrow::Cow<'static, str> {
        "OneUpPuzzle".into()
    }

    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>) {
        use utoipa::PartialSchema;
        schemas.push((Clue::name().into(), Clue::schema()));
    }
}

impl Puzzle {
    /// Builds and validates a puzzle from its parts; errors name the JSON field at fault.
    pub fn new(row_regions: Vec<String>, col_regions: Vec<String>, clues: Vec<Clue>) -> Result<Puzzle, ParseError> {
        let field = |name: &str, i: usize| Loc::Field(format!("{name}[{i}]"));
        let size = grid_rows(&row_regions, "row_regions", &Loc::Field("row_regions".into()))?;
        for (i, line) in row_regions.iter().enumerate() {
            check_label_line(line, size, "row_regions", &field("row_regions", i))?;
        }
        if col_regions.is_empty() {
            return Err(ParseError::new(
                ErrorKind::GridShape,
                &Loc::Field("col_regions".into()),
                format!("expected {size} lines of column-region labels, found none"),
            ));
        }
        for (i, line) in col_regions.iter().enumerate() {
            check_label_line(line, size, "col_regions", &field("col_regions", i))?;
        }
        if col_regions.len() != size {
            return Err(ParseError::new(
                ErrorKind::GridShape,
                &Loc::Field("col_regions".into()),
                format!(
                    "expected {size} lines of column-region labels (the grid is {size} x {size}), found {}",
                    col_regions.len()
                ),
            ));
        }
        let located = clues.into_iter().enumerate().map(|(i, c)| (c, field("clues", i))).collect();
        Puzzle::assemble(row_regions, col_regions, located)
    }

    /// Final stage shared by all front ends: label grids are already N x N and well formed;
    /// checks each clue against the grid and its regions.
    pub(crate) fn assemble(
        row_regions: Vec<String>,
        col_regions: Vec<String>,
        clues: Vec<(Clue, Loc)>,
    ) -> Result<Puzzle, ParseError> {
        let layout = Layout::from_labels(&row_regions, &col_regions);
        let n = layout.size;
        let mut seen: Vec<Option<Loc>> = vec![None; n * n];
        for (clue, loc) in &clues {
            if !(1..=n).contains(&clue.row) || !(1..=n).contains(&clue.col) {
                return Err(ParseError::new(
                    ErrorKind::ClueOutsideGrid,
                    loc,
                    format!(
                        "clue at row {}, column {} is outside the {n} x {n} grid (rows and columns are 1 to {n})",
                        clue.row, clue.col
                    ),
                ));
            }
            let cell = (clue.row - 1) * n + clue.col - 1;
            let (rs, cs) = layout.region_sizes(cell);
            if clue.digit == 0 || clue.digit as usize > rs.min(cs) {
                return Err(ParseError::new(
                    ErrorKind::ClueDigit,
                    loc,
                    format!(
                        "clue digit {} at row {}, column {} is impossible: its row region has {rs} cells and its column region {cs}, so the digit must be 1 to {}",
                        clue.digit, clue.row, clue.col, rs.min(cs)
                    ),
                ));
            }
            if let Some(first) = &seen[cell] {
                let where_ = match first {
                    Loc::Line(l) => format!("line {l}"),
                    Loc::Field(f) => f.clone(),
                    Loc::Nowhere => "earlier".into(),
                };
                return Err(ParseError::new(
                    ErrorKind::DuplicateClue,
                    loc,
                    format!("row {}, column {} already has a clue ({where_})", clue.row, clue.col),
                ));
            }
            seen[cell] = Some(loc.clone());
        }
        Ok(Puzzle { row_regions, col_regions, clues: clues.into_iter().map(|(c, _)| c).collect() })
    }

    /// Trusted constructor for the generator, whose parts are valid by construction.
    pub(crate) fn from_parts(row_regions: Vec<String>, col_regions: Vec<String>, clues: Vec<Clue>) -> Puzzle {
        Puzzle { row_regions, col_regions, clues }
    }

    /// Grid side length N.
    pub fn size(&self) -> usize {
        self.row_regions.len()
    }

    pub fn row_regions(&self) -> &[String] {
        &self.row_regions
    }

    pub fn col_regions(&self) -> &[String] {
        &self.col_regions
    }

    pub fn clues(&self) -> &[Clue] {
        &self.clues
    }

    pub(crate) fn layout(&self) -> Layout {
        Layout::from_labels(&self.row_regions, &self.col_regions)
    }
}

/// Checks that a label grid has a first line whose width is a supported size; returns N.
pub(crate) fn grid_rows(lines: &[String], what: &str, loc: &Loc) -> Result<usize, ParseError> {
    let Some(first) = lines.first() else {
        return Err(ParseError::new(ErrorKind::GridShape, loc, format!("expected {what} lines, found none")));
    };
    let size = first.chars().count();
    check_size(size, first, loc)?;
    if lines.len() != size {
        return Err(ParseError::new(
            ErrorKind::GridShape,
            loc,
            format!("the lines are {size} wide, so the grid needs {size} lines, found {}", lines.len()),
        ));
    }
    Ok(size)
}

/// The grid size is read from the width of the first label line.
pub(crate) fn check_size(size: usize, first_line: &str, loc: &Loc) -> Result<(), ParseError> {
    check_labels(first_line, loc)?;
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(ParseError::new(
            ErrorKind::Size,
            loc,
            format!(
                "the grid would be {size} x {size} ('{first_line}' has {size} labels); sizes {MIN_SIZE} to {MAX_SIZE} are supported"
            ),
        ));
    }
    Ok(())
}

fn check_labels(line: &str, loc: &Loc) -> Result<(), ParseError> {
    if let Some((pos, ch)) = line.chars().enumerate().find(|(_, ch)| !ch.is_ascii_alphanumeric()) {
        return Err(ParseError::new(
            ErrorKind::Label,
            loc,
            format!("region label {ch:?} at position {} is not an ASCII letter or digit", pos + 1),
        ));
    }
    Ok(())
}

/// One line of region labels must be exactly `size` letters/digits.
pub(crate) fn check_label_line(line: &str, size: usize, what: &str, loc: &Loc) -> Result<(), ParseError> {
    check_labels(line, loc)?;
    let width = line.chars().count();
    if width != size {
        return Err(ParseError::new(
            ErrorKind::LineLength,
            loc,
            format!("expected {size} {what} labels (the grid is {size} wide), found {width} ('{line}')"),
        ));
    }
    Ok(())
}

/// Region structure derived from the label grids. Cells are numbered `r * size + c`;
/// regions `0..row_count` are row regions, the rest column regions.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub size: usize,
    /// `[row region, column region]` of each cell.
    pub cell_regions: Vec<[usize; 2]>,
    /// Cells of each region.
    pub regions: Vec<Vec<usize>>,
}

impl Layout {
    pub fn from_labels(rows: &[String], cols: &[String]) -> Layout {
        let n = rows.len();
        let (rows, cols): (Vec<&[u8]>, Vec<&[u8]>) =
            (rows.iter().map(|s| s.as_bytes()).collect(), cols.iter().map(|s| s.as_bytes()).collect());
        let mut cell_regions = vec![[0usize; 2]; n * n];
        let mut regions: Vec<Vec<usize>> = Vec::new();
        // Row regions: runs along each row of row labels; column regions: runs down each
        // column of column labels.
        for (axis, labels) in [rows, cols].iter().enumerate() {
            for a in 0..n {
                for b in 0..n {
                    let (r, c) = if axis == 0 { (a, b) } else { (b, a) };
                    let (pr, pc) = if axis == 0 { (a, b.wrapping_sub(1)) } else { (b.wrapping_sub(1), a) };
                    if b == 0 || labels[r][c] != labels[pr][pc] {
                        regions.push(Vec::new());
                    }
                    let id = regions.len() - 1;
                    regions[id].push(r * n + c);
                    cell_regions[r * n + c][axis] = id;
                }
            }
        }
        Layout { size: n, cell_regions, regions }
    }

    /// Sizes of a cell's row and column regions.
    pub fn region_sizes(&self, cell: usize) -> (usize, usize) {
        let [r, c] = self.cell_regions[cell];
        (self.regions[r].len(), self.regions[c].len())
    }

    /// Largest digit a cell can hold.
    pub fn max_digit(&self, cell: usize) -> usize {
        let (r, c) = self.region_sizes(cell);
        r.min(c)
    }
}
